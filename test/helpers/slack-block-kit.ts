import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Checks a Slack incoming-webhook message against the vendored, trimmed Block Kit reference
 * (test/fixtures/slack/block-kit-limits.json, its source named there): the block and element
 * types it lists, their properties (an unknown one is a problem), required fields and length
 * limits. Returns the problems found; none means Slack would take the message.
 */
interface TextRule {
  types: string[];
  maxLength: number;
}
interface Spec {
  message: { required: string[]; properties: string[]; blocks: { maxItems: number } };
  textObject: { types: string[]; properties: string[]; minLength: number; maxLength: number };
  blocks: Record<string, { properties: string[]; required?: string[]; requiredOneOf?: string[] } & Record<string, unknown>>;
  elements: Record<string, { properties: string[]; required: string[] } & Record<string, unknown>>;
}

export const blockKitSpec = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../fixtures/slack/block-kit-limits.json"), "utf8"),
) as Spec;

type Json = Record<string, unknown>;

export function blockKitProblems(message: unknown): string[] {
  const problems: string[] = [];
  const spec = blockKitSpec;
  const object = (value: unknown, where: string): value is Json => {
    if (value && typeof value === "object" && !Array.isArray(value)) return true;
    problems.push(`${where}: not an object`);
    return false;
  };
  const keys = (value: Json, allowed: string[], required: string[], where: string) => {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) problems.push(`${where}.${key}: not a property Slack knows`);
    for (const key of required) if (value[key] === undefined) problems.push(`${where}.${key}: required`);
  };
  const text = (value: unknown, rule: TextRule, where: string) => {
    if (!object(value, where)) return;
    keys(value, spec.textObject.properties, ["type", "text"], where);
    if (!rule.types.includes(String(value.type))) problems.push(`${where}.type: ${String(value.type)} not one of ${rule.types.join(", ")}`);
    const length = typeof value.text === "string" ? value.text.length : -1;
    if (length < spec.textObject.minLength || length > rule.maxLength)
      problems.push(`${where}.text: length ${length} outside 1..${rule.maxLength}`);
    // mrkdwn's control characters must arrive escaped (the service sends no <link|text> markup)
    if (value.type === "mrkdwn" && typeof value.text === "string" && /[<>]/.test(value.text)) {
      problems.push(`${where}.text: unescaped < or > in mrkdwn`);
    }
  };
  if (!object(message, "message")) return problems;
  keys(message, spec.message.properties, spec.message.required, "message");
  const blocks = Array.isArray(message.blocks) ? message.blocks : [];
  if (blocks.length > spec.message.blocks.maxItems)
    problems.push(`message.blocks: ${blocks.length} blocks, at most ${spec.message.blocks.maxItems}`);
  blocks.forEach((block: unknown, index) => {
    const where = `blocks[${index}]`;
    if (!object(block, where)) return;
    const rule = spec.blocks[String(block.type)];
    if (!rule) return problems.push(`${where}.type: ${String(block.type)} is not a block this reference lists`);
    keys(block, rule.properties, rule.required ?? [], where);
    if (rule.requiredOneOf && !rule.requiredOneOf.some((key) => block[key] !== undefined))
      problems.push(`${where}: needs one of ${rule.requiredOneOf.join(", ")}`);
    if (block.text !== undefined) text(block.text, rule.text as TextRule, `${where}.text`);
    if (Array.isArray(block.fields)) {
      const fields = rule.fields as TextRule & { maxItems: number };
      if (block.fields.length > fields.maxItems) problems.push(`${where}.fields: more than ${fields.maxItems}`);
      block.fields.forEach((field: unknown, i) => text(field, fields, `${where}.fields[${i}]`));
    }
    if (Array.isArray(block.elements)) {
      const elements = rule.elements as { maxItems: number; types: string[] };
      if (block.elements.length > elements.maxItems) problems.push(`${where}.elements: more than ${elements.maxItems}`);
      block.elements.forEach((element: unknown, i) => {
        const at = `${where}.elements[${i}]`;
        if (!object(element, at)) return;
        if (!elements.types.includes(String(element.type))) return problems.push(`${at}.type: ${String(element.type)} not allowed here`);
        const elementRule = spec.elements[String(element.type)];
        if (!elementRule) return text(element, { types: elements.types, maxLength: spec.textObject.maxLength }, at);
        keys(element, elementRule.properties, elementRule.required, at);
        text(element.text, elementRule.text as TextRule, `${at}.text`);
        for (const field of ["url", "action_id"] as const) {
          const max = (elementRule[field] as { maxLength: number }).maxLength;
          if (typeof element[field] === "string" && (element[field] as string).length > max)
            problems.push(`${at}.${field}: longer than ${max}`);
        }
      });
    }
  });
  return problems;
}
