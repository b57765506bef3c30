import type { MetricFamily } from './types.js';
export declare const abstentionFamily: MetricFamily;
