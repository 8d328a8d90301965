/**
 * A PSA sync in a process of its own, for the SIGKILL drill: it runs the sync of the connection
 * PSA_CONNECTION_ID in the database at PSA_DATABASE_URL, to be killed while its create request
 * is held by the fake PSA (after the ticket's claim committed).
 */
import { openDatabase } from "../../../server/db/client";
import { runPsaSync } from "../../../server/psa/jobs";

const database = await openDatabase({ url: process.env.PSA_DATABASE_URL! });
await runPsaSync(database.prisma, process.env.PSA_CONNECTION_ID!);
process.stdout.write("done\n");
await database.close();
