/**
 * A webhook worker in a process of its own, for the crash test: it delivers from the database
 * at WORKER_DATABASE_URL with a short lease until it is killed.
 */
import { openDatabase } from "../../../server/db/client";
import { startDeliveryWorker } from "../../../server/webhooks/delivery-worker";

const database = await openDatabase({ url: process.env.WORKER_DATABASE_URL! });
startDeliveryWorker(database.prisma, { pollMs: 50, leaseMs: Number(process.env.WORKER_LEASE_MS) });
process.stdout.write("ready\n");
