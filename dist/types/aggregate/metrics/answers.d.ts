import type { MetricFamily } from './types.js';
export declare const answersFamily: MetricFamily;
