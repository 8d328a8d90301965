import { createRequire } from "node:module";

/**
 * Microsoft's own Adaptive Cards library (the `adaptivecards` package, its bundled build: the
 * package's ES modules do not load in Node) as the judge of a card: what its parser reports
 * (unknown elements, invalid values), what its validation reports (missing required properties,
 * ...), and the card as the library serializes it back, which drops whatever it did not know.
 */
interface AdaptiveCards {
  AdaptiveCard: new () => {
    parse(json: unknown, context: unknown): void;
    validateProperties(): { validationEvents: Array<{ message: string }> };
    toJSON(): unknown;
  };
  SerializationContext: new () => { eventCount: number; getEventAt(index: number): { message: string } };
}

const adaptiveCards = createRequire(import.meta.url)("adaptivecards/dist/adaptivecards.js") as AdaptiveCards;

export function checkAdaptiveCard(card: unknown): { problems: string[]; roundTrip: unknown } {
  const parsed = new adaptiveCards.AdaptiveCard();
  const context = new adaptiveCards.SerializationContext();
  parsed.parse(card, context);
  const problems: string[] = [];
  for (let index = 0; index < context.eventCount; index++) problems.push(`parse: ${context.getEventAt(index).message}`);
  for (const event of parsed.validateProperties().validationEvents) problems.push(`validate: ${event.message}`);
  return { problems, roundTrip: parsed.toJSON() };
}
