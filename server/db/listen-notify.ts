import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { log } from "../log";
import type { Db } from "./client";
import { existingPerDatabase, setPerDatabase } from "./per-database";

export interface ChannelHandlers {
  /** A NOTIFY payload sent on the channel by any session, in this process or another. */
  onMessage(payload: string): void;
  /** Messages may have been missed: the listening connection was lost, or has just been (re)established. */
  onGap(): void;
}

/** PostgreSQL's LISTEN/NOTIFY for one database, as every process using it sees it. */
export interface ListenNotify {
  /** Listens on `channel` (a lower-case SQL identifier); resolves once messages are being received. */
  subscribe(channel: string, handlers: ChannelHandlers): Promise<void>;
  /** False while messages could be missed (the listening connection is down). */
  listening(): boolean;
  close(): Promise<void>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;
const RECONNECT_DELAY_MS = { first: 250, max: 10_000 };

function checkChannel(channel: string): void {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid notification channel name: ${channel}`);
}

/**
 * One dedicated connection that LISTENs on every subscribed channel. When it fails, subscribers
 * are told (onGap) at once and again when it is back, since NOTIFYs sent in between are lost;
 * it reconnects with a growing delay until closed.
 */
export function postgresListenNotify(url: string): ListenNotify {
  const subscribers = new Map<string, ChannelHandlers[]>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelay = RECONNECT_DELAY_MS.first;
  let closed = false;

  const everySubscriber = () => [...subscribers.values()].flat();

  function lost(which: pg.Client, reason: string) {
    if (which !== client) return;
    client = undefined;
    which.removeAllListeners("notification");
    which.end().catch(() => undefined);
    for (const handlers of everySubscriber()) handlers.onGap();
    if (closed) return;
    log.warn("database LISTEN connection interrupted; reconnecting", { reason, retryInMs: reconnectDelay });
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().catch(() => undefined);
    }, reconnectDelay);
    reconnectTimer.unref();
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_DELAY_MS.max);
  }

  function connect(): Promise<void> {
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: url, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
      next.on("notification", (message) => {
        for (const handlers of subscribers.get(message.channel) ?? []) handlers.onMessage(message.payload ?? "");
      });
      next.on("error", (error) => lost(next, error.message));
      next.on("end", () => lost(next, "connection ended"));
      try {
        await next.connect();
        for (const channel of subscribers.keys()) await next.query(`LISTEN ${channel}`);
      } catch (error) {
        client = next;
        lost(next, error instanceof Error ? error.message : String(error));
        throw error;
      }
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      reconnectDelay = RECONNECT_DELAY_MS.first;
      for (const handlers of everySubscriber()) handlers.onGap();
    })().finally(() => (connecting = undefined));
    return connecting;
  }

  return {
    async subscribe(channel, handlers) {
      checkChannel(channel);
      if (closed) throw new Error("the database is closed");
      const known = subscribers.get(channel);
      subscribers.set(channel, [...(known ?? []), handlers]);
      if (!client) await (connecting ?? connect());
      else if (!known) await client.query(`LISTEN ${channel}`);
    },
    listening: () => client !== undefined && !closed,
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      await connecting?.catch(() => undefined);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** PGlite runs in this process only (one process per directory), so nothing can be missed. */
export function pgliteListenNotify(pglite: PGlite): ListenNotify {
  const unsubscribers: Array<() => Promise<void>> = [];
  return {
    async subscribe(channel, handlers) {
      checkChannel(channel);
      unsubscribers.push(await pglite.listen(channel, handlers.onMessage));
    },
    listening: () => !pglite.closed,
    async close() {
      if (!pglite.closed) await Promise.all(unsubscribers.splice(0).map((unsubscribe) => unsubscribe().catch(() => undefined)));
    },
  };
}

const LISTEN_NOTIFY = "exposure-monitor.db.listen-notify";

export function attachListenNotify(db: Db, source: ListenNotify): void {
  setPerDatabase(db, LISTEN_NOTIFY, source);
}

export function listenNotifyOf(db: Db): ListenNotify | undefined {
  return existingPerDatabase<ListenNotify>(db, LISTEN_NOTIFY);
}
