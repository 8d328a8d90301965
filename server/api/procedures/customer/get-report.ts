import { z } from "zod";
import {
  customerReport,
  REPORT_DEFAULT_DAYS,
  REPORT_FROM_INVALID,
  REPORT_FUTURE_INVALID,
  REPORT_KIND_INVALID,
  REPORT_MAX_DAYS,
  REPORT_NOT_PROSPECT,
  REPORT_ORDER_INVALID,
  REPORT_PROSPECT_ONLY,
  REPORT_TO_INVALID,
  REPORT_TOO_LONG,
} from "../../../findings/customer-reports";
import { CUSTOMER_NOT_FOUND } from "../../../findings/instances";
import { LOCALE_CODES } from "../../../i18n/locales";
import { partnerProcedure } from "../../trpc";
import { LOCALE_MESSAGE } from "../breach/schemas";
import { uuidInput } from "../../schemas";

const CUSTOMER_ID_INVALID = "Invalid route parameters: Customer ID must be a valid UUID";

/** A calendar day, YYYY-MM-DD, that exists (2026-02-30 does not). */
const day = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: message })
    .refine(
      (value) => {
        const date = new Date(`${value}T00:00:00Z`);
        return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
      },
      { error: message },
    )
    .optional();

export const getReport = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/report",
      tags: ["Partner: customers"],
      summary: "Download a customer's report (PDF)",
      description:
        `A PDF in the customer's locale (or \`localeCode\`). \`kind=executive\` (the default): the period [from, to] in UTC days, ` +
        `at most ${REPORT_MAX_DAYS} days, to at the latest today (default: the last ${REPORT_DEFAULT_DAYS} days): the threat score ` +
        "over time, new and resolved findings, the riskiest mailboxes and breaches. `kind=prospect`: a prospect's one-time " +
        "exposure check (the exposed addresses and the number of breach instances, nothing about the breaches themselves) " +
        "and what full monitoring adds; from and to are not used.",
    },
    produces: "application/pdf",
    errors: { failure: "Failed to create the report", validation: "message" },
    responses: {
      400: [
        CUSTOMER_ID_INVALID,
        REPORT_FROM_INVALID,
        REPORT_TO_INVALID,
        REPORT_KIND_INVALID,
        `Invalid query parameters: ${LOCALE_MESSAGE}`,
        REPORT_ORDER_INVALID,
        REPORT_FUTURE_INVALID,
        REPORT_TOO_LONG,
      ],
      404: CUSTOMER_NOT_FOUND,
      422: [REPORT_PROSPECT_ONLY, REPORT_NOT_PROSPECT],
    },
  })
  .input(
    z.object({
      customerId: uuidInput(CUSTOMER_ID_INVALID),
      kind: z
        .enum(["executive", "prospect"], { error: REPORT_KIND_INVALID })
        .default("executive")
        .meta({ description: "executive (default) or prospect" }),
      from: day(REPORT_FROM_INVALID).meta({ description: "The first day of the period (YYYY-MM-DD, UTC)", example: "2026-09-01" }),
      to: day(REPORT_TO_INVALID).meta({
        description: "The last day of the period (YYYY-MM-DD, UTC; default today)",
        example: "2026-11-30",
      }),
      localeCode: z
        .enum(LOCALE_CODES, { error: `Invalid query parameters: ${LOCALE_MESSAGE}` })
        .optional()
        .meta({ description: "Locale of the report (default: the customer's localeCode)", example: "en-GB" }),
    }),
  )
  .output(z.void())
  .query(async ({ ctx, input }) => {
    const { customerId, ...request } = input;
    const report = await customerReport(ctx.db, ctx.caller.partnerId, customerId, request);
    ctx.response.headers["content-type"] = "application/pdf";
    ctx.response.headers["content-disposition"] = `attachment; filename="${report.filename}"`;
    ctx.response.headers["cache-control"] = "private, no-store";
    ctx.response.body = report.pdf;
  });
