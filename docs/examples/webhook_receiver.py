# A complete webhook receiver (docs/webhooks.md, "Receive webhooks"). Python 3.9+, standard library only:
#   EXPOSURE_SIGNING_TOKEN=<token> PORT=8080 python3 webhook_receiver.py
# The token is the one shown once by secrets/generate or secrets/cycle (or webhook.secret on create).
# After secrets/cycle a receiver still on the previous token keeps receiving: what it refuses with 401
# is sent again at once, signed with the previous token (the fallback), until you deactivate it.
import base64, hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = os.environ.get("EXPOSURE_SIGNING_TOKEN", "").encode()
PORT = int(os.environ.get("PORT", "8080"))
seen = set()  # use your database: an event may arrive more than once


def sign(data: bytes) -> bytes:
    return hmac.new(TOKEN, data, hashlib.sha256).digest()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # verify the raw body, before parsing it
        answer = {}
        if self.headers.get("webhook-signature"):
            # Standard Webhooks: v1,<base64 HMAC of "id.timestamp.body">, any 2xx is success
            msg_id, timestamp = self.headers.get("webhook-id", ""), self.headers.get("webhook-timestamp", "0")
            expected = "v1," + base64.b64encode(sign(f"{msg_id}.{timestamp}.".encode() + body)).decode()
            fresh = abs(time.time() - int(timestamp)) <= 300 if timestamp.isdigit() else False
            if not fresh or not any(hmac.compare_digest(given.encode(), expected.encode()) for given in self.headers["webhook-signature"].split(" ")):
                return self.reply(401)
        else:
            # X-Signature (the default): check the request, then sign the answer with X-Token
            if not hmac.compare_digest(self.headers.get("X-Signature", "").lower().encode(), sign(body).hex().encode()):
                return self.reply(401)
            answer["X-Signature"] = sign(self.headers.get("X-Token", "").encode() + b":" + body).hex()
        event = json.loads(body)
        if event["idempotencyToken"] not in seen:
            seen.add(event["idempotencyToken"])
            print("received", event["type"], event["idempotencyToken"], flush=True)  # act on the event here
        self.reply(200, answer)

    def reply(self, status, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("", PORT), Receiver)
print("listening on", PORT, flush=True)
server.serve_forever()
