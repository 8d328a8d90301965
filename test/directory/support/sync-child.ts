/**
 * A directory sync in a process of its own, for the crash test: it syncs the connection
 * SYNC_CONNECTION_ID in the database at SYNC_DATABASE_URL (a short lease, one user per apply
 * transaction) and prints its run's place as it goes, until it is killed.
 */
import { openDatabase } from "../../../server/db/client";
import { syncDirectory } from "../../../server/directory/sync";

const database = await openDatabase({ url: process.env.SYNC_DATABASE_URL! });
const db = database.prisma;
const connectionId = process.env.SYNC_CONNECTION_ID!;
setInterval(async () => {
  const [place] = await db.$queryRaw<Array<{ phase: string | null; cursor: string | null; dirty: number }>>`
    SELECT run_phase AS phase, run_cursor AS cursor,
           (SELECT count(*) FROM directory_users u WHERE u.connection_id = c.id AND u.dirty)::int AS dirty
    FROM directory_connections c WHERE c.id = ${connectionId}::uuid`;
  process.stdout.write(`${JSON.stringify(place)}\n`);
}, 5);
await syncDirectory(db, connectionId, { leaseMs: 500, applyBatch: 1 });
process.stdout.write(`${JSON.stringify({ done: true })}\n`);
