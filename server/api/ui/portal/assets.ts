import { z } from "zod";
import { portalAssets } from "../../../portal/view";
import { customerProcedure } from "../../trpc";

/** The monitored domains and e-mail addresses. */
export const assets = customerProcedure.input(z.object({}).optional()).query(({ ctx }) => portalAssets(ctx.db, ctx.customer.id));
