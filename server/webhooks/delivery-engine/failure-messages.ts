/** A delivery's error when it ends without an answer: not sent (refused by routing or the claim), or interrupted (the sweep). */
export const NO_ACTIVE_SECRET = "No active signing secret: the delivery was not sent";
export const ENDPOINT_DISABLED = "Endpoint is disabled: the delivery was not sent";
export const INTERRUPTED = "Interrupted: the worker stopped before the attempt finished";
