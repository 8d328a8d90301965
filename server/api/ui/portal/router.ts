import { router } from "../../trpc";
import { assets } from "./assets";
import { breachMuted, setBreachMuted } from "./breach-mute";
import { checkDomainDns, domains, sendDomainLink } from "./domains";
import { getBreach } from "./get-breach";
import { listBreaches } from "./list-breaches";
import { me } from "./me";
import { notificationSettings, updateNotificationSettings } from "./notification-settings";
import { overview } from "./overview";
import { setBreachResolved } from "./set-breach-resolved";

/** The customer portal's procedures (customerProcedure: the signed-in customer's data only). */
export const portalRouter = router({
  me,
  overview,
  listBreaches,
  getBreach,
  setBreachResolved,
  breachMuted,
  setBreachMuted,
  assets,
  notificationSettings,
  updateNotificationSettings,
  domains,
  checkDomainDns,
  sendDomainLink,
});
