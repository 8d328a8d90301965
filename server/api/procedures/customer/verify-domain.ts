import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { DOMAIN_NOT_FOUND } from "../../../domains/domains";
import { MAIL_NOT_SENT, TOO_MANY_LINKS, TOO_MANY_PARTNER_LINKS, VERIFICATION_MAILBOXES } from "../../../domains/email-link";
import { MAIL_STOPPED } from "../../../domains/mail-stops";
import { MAILBOX_REQUIRED, requestDomainVerification } from "../../../domains/requests";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "./fields";

export const verifyDomain = partnerOrDistributorProcedure
  .meta({
    audit: { action: "domain.verify-request", target: { type: "domain", key: "domain" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/{customerId}/domains/{domain}/verify",
      tags: ["Partner: customers"],
      summary: "Verify that a customer controls one of its domains",
      description: [
        '`{"method": "dns"}` looks up the TXT record of GET .../domains at once (unverified domains are also re-checked hourly',
        'for 7 days); while it is missing the status stays `unverified` with a `reason`. `{"method": "email", "mailbox": "security"}`',
        "e-mails a one-time link (24 hours) to that mailbox at the domain (security, postmaster, hostmaster, webmaster or admin);",
        'following it verifies the domain; its "not us: stop" link ends that partner\'s e-mails to the domain (then 403).',
        "Verifying emits customer.domain.verified, then reveals what was withheld at the domain",
        "with the usual customer.asset.added and customer.breach.found events ([domain verification](/docs/domains)).",
      ].join(" "),
    },
    errors: { failure: "Failed to verify domain", invalidJson: "Request body must be valid JSON" },
    responses: {
      400: MAILBOX_REQUIRED,
      403: MAIL_STOPPED,
      404: [CUSTOMER_NOT_FOUND, DOMAIN_NOT_FOUND],
      429: [TOO_MANY_LINKS, TOO_MANY_PARTNER_LINKS],
      503: MAIL_NOT_SENT,
    },
  })
  .input(
    z.object({
      customerId: customerIdPath,
      domain: z.string().meta({ description: "One of the customer's monitored domains", example: "example.com" }),
      method: z.enum(["dns", "email"], { error: 'Method must be "dns" or "email"' }),
      mailbox: z
        .enum(VERIFICATION_MAILBOXES, { error: `Mailbox must be one of ${VERIFICATION_MAILBOXES.join(", ")}` })
        .optional()
        .meta({ description: "For the email method: the mailbox at the domain the link goes to" }),
    }),
  )
  .output(
    z.object({
      success: successTrue,
      domain: z.string(),
      status: z.enum(["unverified", "verified"]),
      reason: z.string().optional().meta({ description: "dns: why the domain is not verified yet" }),
      emailSentTo: z.string().optional().meta({ description: "email: the address the link was sent to" }),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const { customerId, domain, method, mailbox } = input;
    const request = method === "dns" ? { method } : { method, mailbox };
    return { success: true as const, ...(await requestDomainVerification(ctx.db, ctx.caller.partnerId, customerId, domain, request)) };
  });
