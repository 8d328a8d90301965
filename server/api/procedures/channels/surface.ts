import { WEBHOOK_BASE_PATHS } from "../../../webhooks/api-paths";
import { partnerSurface, type WebhookSurface } from "../webhooks/surfaces";

/**
 * A channel is a webhook endpoint of protocol `channel`: its delivery log, retry and recover are
 * the webhook procedures served on the channels' path (their answers and texts as for webhooks).
 */
export const channelSurface: WebhookSurface = {
  protocol: "channel",
  basePath: WEBHOOK_BASE_PATHS.channel,
  tags: ["Partner: chat and SIEM channels"],
  procedure: partnerSurface.procedure,
};
