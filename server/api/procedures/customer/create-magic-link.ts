import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { CUSTOMER_CANNOT_SIGN_IN, createMagicLink as createMagicLinkService, NO_PLATFORM_USER } from "../../../portal/magic-links";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { customerIdPath } from "./fields";

export const createMagicLink = partnerProcedure
  .meta({
    audit: { action: "customer.magic-link", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/{customerId}/magic-link",
      tags: ["Partner: customers"],
      summary: "Create a one-time sign-in link to the customer portal",
      description:
        "No body. The `url` signs the customer in once, within one hour of its creation; opening it again, or later, lands on " +
        "an error page. Treat it as a password: deliver it over HTTPS only (a redirect, a new tab) and never log it. After " +
        "sign-in the portal keeps an access token of about an hour, refreshed while the customer is active.",
    },
    errors: { failure: "Failed to generate magic link", validation: { prefix: "Invalid route parameters: " } },
    responses: {
      400: ["Invalid route parameters: Customer ID must be a valid UUID", NO_PLATFORM_USER],
      404: CUSTOMER_NOT_FOUND,
      422: CUSTOMER_CANNOT_SIGN_IN,
    },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(
    z.object({
      success: successTrue,
      url: z.string().meta({
        format: "uri",
        description: "The portal's confirmation address",
        example: "https://portal.example.com/auth/confirm?token_hash=Zm9vYmFy&type=magiclink",
      }),
    }),
  )
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    ...(await createMagicLinkService(ctx.db, ctx.caller.partnerId, input.customerId)),
  }));
