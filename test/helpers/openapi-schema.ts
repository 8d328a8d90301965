import { z } from "zod";

interface WithSchemas {
  components?: { schemas?: Record<string, unknown> };
}

/**
 * A validator for a JSON Schema of an OpenAPI document (a body, a parameter, a header, an example's
 * schema), its `#/components/schemas/...` references resolved, compiled with zod's fromJSONSchema.
 */
export function schemaValidator(document: WithSchemas, schema: object): z.ZodType {
  const local = (value: object) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/'));
  return z.fromJSONSchema({ ...local(schema), $defs: local(document.components?.schemas ?? {}) });
}
