export interface RunWriterOptions {
    runId: string;
    suite: string;
    /** The run's settings (`config_snapshot_json`): chunker_version, embedding_model, index_version, ... */
    config?: Record<string, unknown>;
    commitHash?: string | null;
    /** RFC 3339; default: now. */
    createdAt?: string;
}
/** A hit as written: `rank` is numbered 1..n in list order when left out. Keys: schemas/result.schema.json. */
export type HitInput = {
    rank?: number;
    chunk_id?: string | null;
    doc_id?: string | null;
} & Record<string, unknown>;
/** One query's result: `hits` becomes `hits_top_k`; any other key of schemas/result.schema.json may be given. */
export type ResultInput = {
    hits?: HitInput[];
    answer?: string | Record<string, unknown> | null;
} & Record<string, unknown>;
export declare class RunWriter {
    private readonly db;
    readonly path: string;
    readonly runId: string;
    private readonly ids;
    private constructor();
    /** A writer of run `options.runId` into `path`: a new file, or one whose other runs are kept. */
    static create(path: string, options: RunWriterOptions): Promise<RunWriter>;
    /** One query's result, checked against schemas/result.schema.json before it is written. */
    addResult(queryId: string, input: ResultInput): void;
    /** Commits and writes the file (atomically); a run without results is refused and nothing is written. */
    close(): void;
}
