/** Scenario tests as data: read scenario files, run them against a compiled pack, report. No Node imports. */
export type { Entry, Failure, Plain, Scenario, ScenarioFile, ScenarioResult, StateCheck, Step, Where } from './format.ts';
export { readScenarioFile } from './read.ts';
export { runScenarios, runScenario, type RunOptions } from './run.ts';
export { formatFailure, formatResult, formatResults, summarize } from './report.ts';
