/**
 * A steady-rate load test (the rate of "p99 < N ms at R req/s"): requests are sent every 1/R
 * seconds from a separate process and each is timed from when it was due (open-loop-client.ts).
 *
 * autocannon is not used for this: its rate option lets each connection send its share of a
 * second's requests back to back as soon as the second starts and then pause, so "500 req/s"
 * over 20 connections is a burst of 20 concurrent streams each second; and it records every
 * answer slower than 1 ms as a run of extra samples (its coordinated-omission correction
 * computes the expected interval as ceil(1 / rate) milliseconds), which makes up the tail.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { machineCpuShare, machineCpuTimes } from "./bench-kit";

export interface OpenLoopRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  baseUrl: string;
  requests: OpenLoopRequest[];
  rate: number;
  seconds: number;
  /** Keep-alive connections the client may open (a slow answer holds one; later requests use others). */
  connections: number;
  /** Sent first at the same rate and not counted (the server's and the client's warm-up). */
  warmUpSeconds?: number;
}

export interface OpenLoopRun {
  requests: number;
  achievedRate: number;
  non2xx: number;
  errors: number;
  firstError?: string;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  /**
   * How late the load generator's own event loop ran during the measured part: time in which it
   * could neither send nor read, counted in the latencies above although the server was not the cause.
   */
  loadGeneratorDelayMs: { p99: number; max: number };
}

/**
 * Runs one steady-rate load from a child process; also reports how busy the machine's CPUs were
 * while the measured part ran.
 */
export async function runOpenLoop(
  options: OpenLoopOptions,
): Promise<OpenLoopRun & { machineCpuBusyPercent?: number; machineCpuStealPercent?: number }> {
  const child = fork(fileURLToPath(new URL("./open-loop-client.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"] });
  let cpuBefore = machineCpuTimes();
  const result = await new Promise<OpenLoopRun>((resolve, reject) => {
    child.on("message", (message: OpenLoopRun | { measuring: true }) => {
      if ("measuring" in message) cpuBefore = machineCpuTimes();
      else resolve(message);
    });
    child.once("exit", (code) => reject(new Error(`the load generator exited with code ${code}`)));
    child.send(options);
  });
  const cpuAfter = machineCpuTimes();
  return {
    ...result,
    machineCpuBusyPercent: machineCpuShare(cpuBefore, cpuAfter, "busy"),
    machineCpuStealPercent: machineCpuShare(cpuBefore, cpuAfter, "steal"),
  };
}
