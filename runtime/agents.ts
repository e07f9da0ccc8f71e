/** The agents (`runtime/agents/`), where the simulators, the playground and the tests have always imported them from. */
export * from './agents/index.ts';
