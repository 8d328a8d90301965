import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { config } from "../config";

/**
 * Prisma's schema engine in its WebAssembly build (the native binary cannot be downloaded on
 * these machines). The package's ESM entry imports the .wasm file, which Node refuses, so the
 * module is compiled and instantiated here with the package's own JS glue.
 */
export interface SchemaEngine {
  applyMigrations(input: { migrationsList: MigrationsList; filters: SchemaFilter }): Promise<{ appliedMigrationNames: string[] }>;
  diff(params: {
    from: DiffTarget;
    to: DiffTarget;
    script: boolean;
    exitCode: boolean | null;
    filters: SchemaFilter;
  }): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}

export interface MigrationsList {
  baseDir: string;
  lockfile: { path: string; content: string | null };
  shadowDbInitScript: string;
  migrationDirectories: Array<{
    path: string;
    migrationFile: { path: string; content: { tag: "ok"; value: string } | { tag: "error"; value: string } };
  }>;
}

export type SchemaFilter = { externalTables: string[]; externalEnums: string[] };

export type DiffTarget =
  ({ tag: "migrations" } & MigrationsList) | { tag: "schemaDatamodel"; files: Array<{ path: string; content: string }> } | { tag: "empty" };

export const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

interface EngineModule {
  SchemaEngine: {
    new: (
      options: { datamodels: [string, string][] | undefined },
      logCallback: (log: string) => void,
      adapter: unknown,
    ) => Promise<SchemaEngine>;
  };
}

let modulePromise: Promise<EngineModule> | undefined;

function loadEngineModule(): Promise<EngineModule> {
  modulePromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = (await import(/* webpackIgnore: true */ gluePath)) as Record<string, unknown> & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    const wasmModule = await WebAssembly.compile(bytes);
    const instance = await WebAssembly.instantiate(wasmModule, {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue as unknown as EngineModule;
  })();
  return modulePromise;
}

export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  datamodels?: [string, string][],
): Promise<SchemaEngine> {
  const engineModule = await loadEngineModule();
  return engineModule.SchemaEngine.new(
    { datamodels },
    (log) => {
      if (config.prismaEngineDebug()) console.error(log);
    },
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}
