import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { schemaValidator } from "../helpers/openapi-schema";

/**
 * Every example of the OpenAPI document (of a schema, a parameter, a header, a request or response
 * body) against the schema it illustrates: an example that its own schema refuses misleads every
 * reader and every tool that builds requests from it.
 */
interface Example {
  where: string;
  schema: object;
  value: unknown;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

function examplesOf(document: object): Example[] {
  const found: Example[] = [];
  const visit = (node: unknown, where: string, isPropertyMap = false) => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${where}/${index}`));
    if (!isNode(node)) return;
    if (isPropertyMap) {
      for (const [name, property] of Object.entries(node)) visit(property, `${where}/${name}`);
      return;
    }
    if (isNode(node.schema)) {
      // a parameter, a header or a media type: `example`, or `examples` named, each with its value
      if ("example" in node) found.push({ where: `${where} example`, schema: node.schema, value: node.example });
      for (const [name, example] of Object.entries(isNode(node.examples) ? node.examples : {})) {
        if (isNode(example) && "value" in example)
          found.push({ where: `${where} examples.${name}`, schema: node.schema, value: example.value });
      }
    } else {
      // a schema: `example` (OpenAPI's), or `examples` (JSON Schema's list)
      const { example, examples, ...schema } = node;
      if (example !== undefined) found.push({ where: `${where} example`, schema, value: example });
      if (Array.isArray(examples)) examples.forEach((value, index) => found.push({ where: `${where} examples.${index}`, schema, value }));
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === "example" || key === "examples" || key === "value") continue;
      visit(child, `${where}/${key}`, key === "properties" || key === "patternProperties" || key === "$defs");
    }
  };
  visit(document, "#");
  return found;
}

function invalidExamples(document: object): string[] {
  return examplesOf(document).flatMap(({ where, schema, value }) => {
    const result = schemaValidator(document, schema).safeParse(value);
    return result.success ? [] : [`${where}: ${JSON.stringify(value)}: ${result.error.issues.map((issue) => issue.message).join("; ")}`];
  });
}

describe("the OpenAPI document's examples", () => {
  const document = buildOpenApiDocument("http://localhost:3000");

  it("each validate against the schema they illustrate", () => {
    const examples = examplesOf(document);
    // error envelopes, uuids, e-mail addresses, amounts, event bodies, ...: hundreds of them
    expect(examples.length).toBeGreaterThan(500);
    expect(examples.some((example) => example.where.includes("/webhooks/"))).toBe(true);
    expect(examples.some((example) => example.where.includes("/components/headers/"))).toBe(true);
    expect(invalidExamples(document)).toEqual([]);
  });

  it("are checked for real: an example its schema refuses is reported, wherever it is", () => {
    const broken = structuredClone(document) as unknown as { paths: Record<string, Record<string, Node>>; components: { headers: Node } };
    const onboard = broken.paths["/api/v1/integrations/customer/onboard"]!.post!;
    const body = (onboard.requestBody as { content: Record<string, { schema: { properties: Record<string, Node> } }> }).content[
      "application/json"
    ]!.schema;
    body.properties.price!.example = "49.99";
    body.properties.localeCode!.example = 42;
    const plan = broken.paths["/api/v1/distributors/plans/{planId}"]!.get!;
    ((plan.parameters as Node[])[0]!.schema as Node).example = "not-a-uuid";
    const notFound = (plan.responses as Record<string, { content: Record<string, { examples: Record<string, { value: unknown }> }> }>)[
      "404"
    ]!;
    notFound.content["application/json"]!.examples.example1!.value = { success: true, error: "Plan not found" };
    (broken.components.headers["Retry-After"] as { schema: Node }).schema.example = 0;

    const problems = invalidExamples(broken);
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toContain("/properties/price example");
    expect(problems.join("\n")).toContain("/parameters/0/schema example");
    expect(problems.join("\n")).toContain("/responses/404/content/application/json examples.example1");
  });
});
