// The types of scripts/build.mjs, for the TypeScript that builds before it times a thread's start.
export declare function buildNode(link?: string): Promise<number>;
