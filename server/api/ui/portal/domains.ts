import { z } from "zod";
import { VERIFICATION_MAILBOXES } from "../../../domains/email-link";
import { portalCheckDns, portalDomains, portalSendLink } from "../../../domains/portal";
import { customerProcedure } from "../../trpc";

/** The customer's domains with their verification state, the TXT record and what was found. */
export const domains = customerProcedure.input(z.object({}).optional()).query(({ ctx }) => portalDomains(ctx.db, ctx.customer.id));

export const checkDomainDns = customerProcedure
  .input(z.object({ domain: z.string().max(300) }))
  .mutation(({ ctx, input }) => portalCheckDns(ctx.db, ctx.customer.id, input.domain));

export const sendDomainLink = customerProcedure
  .input(z.object({ domain: z.string().max(300), mailbox: z.enum(VERIFICATION_MAILBOXES) }))
  .mutation(({ ctx, input }) => portalSendLink(ctx.db, ctx.customer.id, input.domain, input.mailbox));
