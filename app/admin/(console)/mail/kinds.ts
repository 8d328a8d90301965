import type { NotificationKind } from "@/server/notifications/types";

export const KIND_LABELS: Record<NotificationKind, string> = { welcome: "Welcome", breach_alert: "Breach alert", monthly_report: "Monthly report" };
