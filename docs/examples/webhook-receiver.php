<?php
// A complete webhook receiver (docs/webhooks.md, "Receive webhooks"). PHP 8, no extensions beyond the defaults.
// Behind your web server, or locally: EXPOSURE_SIGNING_TOKEN=<token> php -S 0.0.0.0:8080 webhook-receiver.php
// The token is the one shown once by secrets/generate or secrets/cycle (or webhook.secret on create).
// After secrets/cycle a receiver still on the previous token keeps receiving: what it refuses with 401
// is sent again at once, signed with the previous token (the fallback), until you deactivate it.
$token = getenv('EXPOSURE_SIGNING_TOKEN') ?: '';
$body = file_get_contents('php://input'); // verify the raw body, before parsing it

if (isset($_SERVER['HTTP_WEBHOOK_SIGNATURE'])) {
    // Standard Webhooks: v1,<base64 HMAC of "id.timestamp.body">, any 2xx is success
    $id = $_SERVER['HTTP_WEBHOOK_ID'] ?? '';
    $timestamp = $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '0';
    $expected = 'v1,' . base64_encode(hash_hmac('sha256', "$id.$timestamp.$body", $token, true));
    $valid = false;
    foreach (explode(' ', $_SERVER['HTTP_WEBHOOK_SIGNATURE']) as $given) {
        $valid = $valid || hash_equals($expected, $given);
    }
    if (!$valid || abs(time() - (int) $timestamp) > 300) {
        http_response_code(401);
        exit;
    }
} else {
    // X-Signature (the default): check the request, then sign the answer with X-Token
    $given = strtolower($_SERVER['HTTP_X_SIGNATURE'] ?? '');
    if (!hash_equals(hash_hmac('sha256', $body, $token), $given)) {
        http_response_code(401);
        exit;
    }
    header('X-Signature: ' . hash_hmac('sha256', ($_SERVER['HTTP_X_TOKEN'] ?? '') . ':' . $body, $token));
}

$event = json_decode($body, true);
// Act once per $event['idempotencyToken'] (keep the tokens you have seen in your database: an event may arrive more than once).
file_put_contents('php://stderr', "received {$event['type']} {$event['idempotencyToken']}\n");
http_response_code(200);
