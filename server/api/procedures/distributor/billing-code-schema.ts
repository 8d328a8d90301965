import { z } from "zod";

export const billingCodeSchema = z
  .object({ id: z.number().int(), code: z.string().meta({ example: "SW-A" }), price: z.number().meta({ example: 2.5 }) })
  .meta({ id: "BillingCode" });
