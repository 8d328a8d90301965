import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { listCustomerDomains } from "../../../domains/domains";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "./fields";

const domainEntry = z
  .object({
    domain: z.string().meta({ description: "The monitored domain (lower case, internationalized names in punycode)" }),
    status: z.enum(["unverified", "verified"]),
    method: z.enum(["dns", "email", "staff", "directory"]).nullable().meta({ description: "How it was verified; null while unverified" }),
    verifiedAt: z.string().nullable().meta({ format: "date-time" }),
    dnsRecord: z
      .object({ type: z.literal("TXT"), name: z.string(), value: z.string().meta({ example: "exposure-monitor-verification=3f2a..." }) })
      .meta({ description: "The TXT record to publish on the domain itself for the dns method" }),
    exposedAddressCount: z
      .number()
      .int()
      .meta({ description: "Distinct exposed e-mail addresses found at the domain, withheld ones included" }),
    breachCount: z.number().int().meta({ description: "Distinct breaches those addresses are in, withheld ones included" }),
  })
  .meta({ id: "CustomerDomain" });

export const listDomains = partnerOrDistributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/domains",
      tags: ["Partner: customers"],
      summary: "List a customer's domains with their verification state",
      description:
        "Every monitored domain of the customer, sorted, with its verification state, the TXT record that verifies it and how many " +
        "exposed addresses and breaches were found at it. Under the distributor's `verified` domain policy, what was found at an " +
        "unverified domain is counted here and revealed nowhere until the domain is verified ([domain verification](/docs/domains)).",
    },
    errors: { failure: "Failed to retrieve customer domains" },
    responses: { 400: "Validation failed: customerId: Customer ID must be a valid UUID", 404: CUSTOMER_NOT_FOUND },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(z.object({ success: successTrue, data: z.array(domainEntry) }))
  .query(async ({ ctx, input }) => ({
    success: true as const,
    data: (await listCustomerDomains(ctx.db, ctx.caller.partnerId, input.customerId)).map(
      ({ verifiedBy: _by, note: _note, ...entry }) => entry,
    ),
  }));
