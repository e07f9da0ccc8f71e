// The types of bin/built.mjs, for the TypeScript that asks which code its threads start from.
export declare const ROOT: string;
export declare const BUILD_DIR: string;
export declare const INPUTS_FILE: string;
export declare const ENTRIES: { rulebook: string; worker: string; shardJob: string };
export declare function buildIsCurrent(): boolean;
export declare function importEntry(name: keyof typeof ENTRIES): Promise<Record<string, unknown>>;
