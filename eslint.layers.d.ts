/** Types of eslint.layers.js, for test/unit/layers.test.ts. */
export declare const SERVER_TIERS: string[][];
export declare const DB_SHARED_IMPORTS: string[];
export declare function layerZones(): Array<{ target: string; from: string[]; message: string }>;
