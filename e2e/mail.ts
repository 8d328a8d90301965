import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import PostalMime, { type Email } from "postal-mime";

/**
 * The e-mail the e2e server wrote for a recipient (with that subject, when given) (no SMTP_URL there: each message is an .eml
 * file under DATA_DIR/mail), waiting for the background runner to send it.
 */
export async function mailTo(
  address: string,
  { timeoutMs = 20_000, subject }: { timeoutMs?: number; subject?: string } = {},
): Promise<Email> {
  const directory = path.join(process.env.E2E_DATA_DIR ?? "", "mail");
  const seen = new Set<string>();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(directory).catch(() => [] as string[]);
    for (const file of files.filter((name) => !seen.has(name))) {
      seen.add(file);
      const mail = await PostalMime.parse(await readFile(path.join(directory, file)));
      if (mail.to?.some((to) => "address" in to && to.address === address) && (subject === undefined || mail.subject === subject))
        return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no e-mail to ${address} within ${timeoutMs} ms`);
}
