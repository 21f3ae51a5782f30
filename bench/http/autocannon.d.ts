// The part of autocannon 8's API this bench uses (the package ships no types; @types/autocannon is not installed).
declare module 'autocannon' {
  interface Histogram {
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    duration: number;
    errors: number;
    latency: Histogram;
    requests: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Array<{ setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
