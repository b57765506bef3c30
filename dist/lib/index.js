import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 7349:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var resolveBlockMap = __nccwpck_require__(7103);
var resolveBlockSeq = __nccwpck_require__(334);
var resolveFlowCollection = __nccwpck_require__(3142);

function resolveCollection(CN, ctx, token, onError, tagName, tag) {
    const coll = token.type === 'block-map'
        ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag)
        : token.type === 'block-seq'
            ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag)
            : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
    const Coll = coll.constructor;
    // If we got a tagName matching the class, or the tag name is '!',
    // then use the tagName from the node class used to create it.
    if (tagName === '!' || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
    }
    if (tagName)
        coll.tag = tagName;
    return coll;
}
function composeCollection(CN, ctx, token, props, onError) {
    const tagToken = props.tag;
    const tagName = !tagToken
        ? null
        : ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg));
    if (token.type === 'block-seq') {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken
            ? anchor.offset > tagToken.offset
                ? anchor
                : tagToken
            : (anchor ?? tagToken);
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
            const message = 'Missing newline after block sequence props';
            onError(lastProp, 'MISSING_CHAR', message);
        }
    }
    const expType = token.type === 'block-map'
        ? 'map'
        : token.type === 'block-seq'
            ? 'seq'
            : token.start.source === '{'
                ? 'map'
                : 'seq';
    // shortcut: check if it's a generic YAMLMap or YAMLSeq
    // before jumping into the custom tag logic.
    if (!tagToken ||
        !tagName ||
        tagName === '!' ||
        (tagName === YAMLMap.YAMLMap.tagName && expType === 'map') ||
        (tagName === YAMLSeq.YAMLSeq.tagName && expType === 'seq')) {
        return resolveCollection(CN, ctx, token, onError, tagName);
    }
    let tag = ctx.schema.tags.find(t => t.tag === tagName && t.collection === expType);
    if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
            ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
            tag = kt;
        }
        else {
            if (kt) {
                onError(tagToken, 'BAD_COLLECTION_TYPE', `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? 'scalar'}`, true);
            }
            else {
                onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, true);
            }
            return resolveCollection(CN, ctx, token, onError, tagName);
        }
    }
    const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
    const res = tag.resolve?.(coll, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg), ctx.options) ?? coll;
    const node = identity.isNode(res)
        ? res
        : new Scalar.Scalar(res);
    node.range = coll.range;
    node.tag = tagName;
    if (tag?.format)
        node.format = tag.format;
    return node;
}

exports.composeCollection = composeCollection;


/***/ }),

/***/ 3683:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Document = __nccwpck_require__(3021);
var composeNode = __nccwpck_require__(5937);
var resolveEnd = __nccwpck_require__(7788);
var resolveProps = __nccwpck_require__(4631);

function composeDoc(options, directives, { offset, start, value, end }, onError) {
    const opts = Object.assign({ _directives: directives }, options);
    const doc = new Document.Document(undefined, opts);
    const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
    };
    const props = resolveProps.resolveProps(start, {
        indicator: 'doc-start',
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
    });
    if (props.found) {
        doc.directives.docStart = true;
        if (value &&
            (value.type === 'block-map' || value.type === 'block-seq') &&
            !props.hasNewline)
            onError(props.end, 'MISSING_CHAR', 'Block collection cannot start on same line with directives-end marker');
    }
    // @ts-expect-error If Contents is set, let's trust the user
    doc.contents = value
        ? composeNode.composeNode(ctx, value, props, onError)
        : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
    const contentEnd = doc.contents.range[2];
    const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
    if (re.comment)
        doc.comment = re.comment;
    doc.range = [offset, contentEnd, re.offset];
    return doc;
}

exports.composeDoc = composeDoc;


/***/ }),

/***/ 5937:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var composeCollection = __nccwpck_require__(7349);
var composeScalar = __nccwpck_require__(5413);
var resolveEnd = __nccwpck_require__(7788);
var utilEmptyScalarPosition = __nccwpck_require__(2599);

const CN = { composeNode, composeEmptyNode };
function composeNode(ctx, token, props, onError) {
    const atKey = ctx.atKey;
    const { spaceBefore, comment, anchor, tag } = props;
    let node;
    let isSrcToken = true;
    switch (token.type) {
        case 'alias':
            node = composeAlias(ctx, token, onError);
            if (anchor || tag)
                onError(token, 'ALIAS_PROPS', 'An alias node must not specify any properties');
            break;
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'block-scalar':
            node = composeScalar.composeScalar(ctx, token, tag, onError);
            if (anchor)
                node.anchor = anchor.source.substring(1);
            break;
        case 'block-map':
        case 'block-seq':
        case 'flow-collection':
            try {
                node = composeCollection.composeCollection(CN, ctx, token, props, onError);
                if (anchor)
                    node.anchor = anchor.source.substring(1);
            }
            catch (error) {
                // Almost certainly here due to a stack overflow
                const message = error instanceof Error ? error.message : String(error);
                onError(token, 'RESOURCE_EXHAUSTION', message);
            }
            break;
        default: {
            const message = token.type === 'error'
                ? token.message
                : `Unsupported token (type: ${token.type})`;
            onError(token, 'UNEXPECTED_TOKEN', message);
            isSrcToken = false;
        }
    }
    node ?? (node = composeEmptyNode(ctx, token.offset, undefined, null, props, onError));
    if (anchor && node.anchor === '')
        onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    if (atKey &&
        ctx.options.stringKeys &&
        (!identity.isScalar(node) ||
            typeof node.value !== 'string' ||
            (node.tag && node.tag !== 'tag:yaml.org,2002:str'))) {
        const msg = 'With stringKeys, all keys must be strings';
        onError(tag ?? token, 'NON_STRING_KEY', msg);
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        if (token.type === 'scalar' && token.source === '')
            node.comment = comment;
        else
            node.commentBefore = comment;
    }
    // @ts-expect-error Type checking misses meaning of isSrcToken
    if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
    return node;
}
function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
    const token = {
        type: 'scalar',
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ''
    };
    const node = composeScalar.composeScalar(ctx, token, tag, onError);
    if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === '')
            onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        node.comment = comment;
        node.range[2] = end;
    }
    return node;
}
function composeAlias({ options }, { offset, source, end }, onError) {
    const alias = new Alias.Alias(source.substring(1));
    if (alias.source === '')
        onError(offset, 'BAD_ALIAS', 'Alias cannot be an empty string');
    if (alias.source.endsWith(':'))
        onError(offset + source.length - 1, 'BAD_ALIAS', 'Alias ending in : is ambiguous', true);
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
    alias.range = [offset, valueEnd, re.offset];
    if (re.comment)
        alias.comment = re.comment;
    return alias;
}

exports.composeEmptyNode = composeEmptyNode;
exports.composeNode = composeNode;


/***/ }),

/***/ 5413:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var resolveBlockScalar = __nccwpck_require__(8913);
var resolveFlowScalar = __nccwpck_require__(6842);

function composeScalar(ctx, token, tagToken, onError) {
    const { value, type, comment, range } = token.type === 'block-scalar'
        ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError)
        : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
    const tagName = tagToken
        ? ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg))
        : null;
    let tag;
    if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
    }
    else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
    else if (token.type === 'scalar')
        tag = findScalarTagByTest(ctx, value, token, onError);
    else
        tag = ctx.schema[identity.SCALAR];
    let scalar;
    try {
        const res = tag.resolve(value, msg => onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg), ctx.options);
        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
    }
    catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg);
        scalar = new Scalar.Scalar(value);
    }
    scalar.range = range;
    scalar.source = value;
    if (type)
        scalar.type = type;
    if (tagName)
        scalar.tag = tagName;
    if (tag.format)
        scalar.format = tag.format;
    if (comment)
        scalar.comment = comment;
    return scalar;
}
function findScalarTagByName(schema, value, tagName, tagToken, onError) {
    if (tagName === '!')
        return schema[identity.SCALAR]; // non-specific tag
    const matchWithTest = [];
    for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
            if (tag.default && tag.test)
                matchWithTest.push(tag);
            else
                return tag;
        }
    }
    for (const tag of matchWithTest)
        if (tag.test?.test(value))
            return tag;
    const kt = schema.knownTags[tagName];
    if (kt && !kt.collection) {
        // Ensure that the known tag is available for stringifying,
        // but does not get used by default.
        schema.tags.push(Object.assign({}, kt, { default: false, test: undefined }));
        return kt;
    }
    onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, tagName !== 'tag:yaml.org,2002:str');
    return schema[identity.SCALAR];
}
function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
    const tag = schema.tags.find(tag => (tag.default === true || (atKey && tag.default === 'key')) &&
        tag.test?.test(value)) || schema[identity.SCALAR];
    if (schema.compat) {
        const compat = schema.compat.find(tag => tag.default && tag.test?.test(value)) ??
            schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
            const ts = directives.tagString(tag.tag);
            const cs = directives.tagString(compat.tag);
            const msg = `Value may be parsed as either ${ts} or ${cs}`;
            onError(token, 'TAG_RESOLVE_FAILED', msg, true);
        }
    }
    return tag;
}

exports.composeScalar = composeScalar;


/***/ }),

/***/ 9984:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);
var directives = __nccwpck_require__(1342);
var Document = __nccwpck_require__(3021);
var errors = __nccwpck_require__(1464);
var identity = __nccwpck_require__(1127);
var composeDoc = __nccwpck_require__(3683);
var resolveEnd = __nccwpck_require__(7788);

function getErrorPos(src) {
    if (typeof src === 'number')
        return [src, src + 1];
    if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
    const { offset, source } = src;
    return [offset, offset + (typeof source === 'string' ? source.length : 1)];
}
function parsePrelude(prelude) {
    let comment = '';
    let atComment = false;
    let afterEmptyLine = false;
    for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
            case '#':
                comment +=
                    (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') +
                        (source.substring(1) || ' ');
                atComment = true;
                afterEmptyLine = false;
                break;
            case '%':
                if (prelude[i + 1]?.[0] !== '#')
                    i += 1;
                atComment = false;
                break;
            default:
                // This may be wrong after doc-end, but in that case it doesn't matter
                if (!atComment)
                    afterEmptyLine = true;
                atComment = false;
        }
    }
    return { comment, afterEmptyLine };
}
/**
 * Compose a stream of CST nodes into a stream of YAML Documents.
 *
 * ```ts
 * import { Composer, Parser } from 'yaml'
 *
 * const src: string = ...
 * const tokens = new Parser().parse(src)
 * const docs = new Composer().compose(tokens)
 * ```
 */
class Composer {
    constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning) => {
            const pos = getErrorPos(source);
            if (warning)
                this.warnings.push(new errors.YAMLWarning(pos, code, message));
            else
                this.errors.push(new errors.YAMLParseError(pos, code, message));
        };
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        this.directives = new directives.Directives({ version: options.version || '1.2' });
        this.options = options;
    }
    decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        //console.log({ dc: doc.comment, prelude, comment })
        if (comment) {
            const dc = doc.contents;
            if (afterDoc) {
                doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
            }
            else if (afterEmptyLine || doc.directives.docStart || !dc) {
                doc.commentBefore = comment;
            }
            else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
                let it = dc.items[0];
                if (identity.isPair(it))
                    it = it.key;
                const cb = it.commentBefore;
                it.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
            else {
                const cb = dc.commentBefore;
                dc.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
        }
        if (afterDoc) {
            for (let i = 0; i < this.errors.length; ++i)
                doc.errors.push(this.errors[i]);
            for (let i = 0; i < this.warnings.length; ++i)
                doc.warnings.push(this.warnings[i]);
        }
        else {
            doc.errors = this.errors;
            doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
    }
    /**
     * Current stream status information.
     *
     * Mostly useful at the end of input for an empty stream.
     */
    streamInfo() {
        return {
            comment: parsePrelude(this.prelude).comment,
            directives: this.directives,
            errors: this.errors,
            warnings: this.warnings
        };
    }
    /**
     * Compose tokens into documents.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
            yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
    }
    /** Advance the composer by one CST token. */
    *next(token) {
        if (node_process.env.LOG_STREAM)
            console.dir(token, { depth: null });
        switch (token.type) {
            case 'directive':
                this.directives.add(token.source, (offset, message, warning) => {
                    const pos = getErrorPos(token);
                    pos[0] += offset;
                    this.onError(pos, 'BAD_DIRECTIVE', message, warning);
                });
                this.prelude.push(token.source);
                this.atDirectives = true;
                break;
            case 'document': {
                const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
                if (this.atDirectives && !doc.directives.docStart)
                    this.onError(token, 'MISSING_CHAR', 'Missing directives-end/doc-start indicator line');
                this.decorate(doc, false);
                if (this.doc)
                    yield this.doc;
                this.doc = doc;
                this.atDirectives = false;
                break;
            }
            case 'byte-order-mark':
            case 'space':
                break;
            case 'comment':
            case 'newline':
                this.prelude.push(token.source);
                break;
            case 'error': {
                const msg = token.source
                    ? `${token.message}: ${JSON.stringify(token.source)}`
                    : token.message;
                const error = new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg);
                if (this.atDirectives || !this.doc)
                    this.errors.push(error);
                else
                    this.doc.errors.push(error);
                break;
            }
            case 'doc-end': {
                if (!this.doc) {
                    const msg = 'Unexpected doc-end without preceding document';
                    this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg));
                    break;
                }
                this.doc.directives.docEnd = true;
                const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
                this.decorate(this.doc, true);
                if (end.comment) {
                    const dc = this.doc.comment;
                    this.doc.comment = dc ? `${dc}\n${end.comment}` : end.comment;
                }
                this.doc.range[2] = end.offset;
                break;
            }
            default:
                this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', `Unsupported token ${token.type}`));
        }
    }
    /**
     * Call at end of input to yield any remaining document.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
            this.decorate(this.doc, true);
            yield this.doc;
            this.doc = null;
        }
        else if (forceDoc) {
            const opts = Object.assign({ _directives: this.directives }, this.options);
            const doc = new Document.Document(undefined, opts);
            if (this.atDirectives)
                this.onError(endOffset, 'MISSING_CHAR', 'Missing directives-end indicator line');
            doc.range = [0, endOffset, endOffset];
            this.decorate(doc, false);
            yield doc;
        }
    }
}

exports.Composer = Composer;


/***/ }),

/***/ 7103:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);
var resolveProps = __nccwpck_require__(4631);
var utilContainsNewline = __nccwpck_require__(9499);
var utilFlowIndentCheck = __nccwpck_require__(4051);
var utilMapIncludes = __nccwpck_require__(1187);

const startColMsg = 'All mapping items must start at the same column';
function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
    const map = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    let offset = bm.offset;
    let commentEnd = null;
    for (const collItem of bm.items) {
        const { start, key, sep, value } = collItem;
        // key properties
        const keyProps = resolveProps.resolveProps(start, {
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: bm.indent,
            startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
            if (key) {
                if (key.type === 'block-seq')
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'A block sequence may not be used as an implicit map key');
                else if ('indent' in key && key.indent !== bm.indent)
                    onError(offset, 'BAD_INDENT', startColMsg);
            }
            if (!keyProps.anchor && !keyProps.tag && !sep) {
                commentEnd = keyProps.end;
                if (keyProps.comment) {
                    if (map.comment)
                        map.comment += '\n' + keyProps.comment;
                    else
                        map.comment = keyProps.comment;
                }
                continue;
            }
            if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
                onError(key ?? start[start.length - 1], 'MULTILINE_IMPLICIT_KEY', 'Implicit keys need to be on a single line');
            }
        }
        else if (keyProps.found?.indent !== bm.indent) {
            onError(offset, 'BAD_INDENT', startColMsg);
        }
        // key value
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key
            ? composeNode(ctx, key, keyProps, onError)
            : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
            onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
        // value properties
        const valueProps = resolveProps.resolveProps(sep ?? [], {
            indicator: 'map-value-ind',
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: bm.indent,
            startOnNewline: !key || key.type === 'block-scalar'
        });
        offset = valueProps.end;
        if (valueProps.found) {
            if (implicitKey) {
                if (value?.type === 'block-map' && !valueProps.hasNewline)
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'Nested mappings are not allowed in compact mappings');
                if (ctx.options.strict &&
                    keyProps.start < valueProps.found.offset - 1024)
                    onError(keyNode.range, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit block mapping key');
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
            if (ctx.schema.compat)
                utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
            offset = valueNode.range[2];
            const pair = new Pair.Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
        else {
            // key with no value
            if (implicitKey)
                onError(keyNode.range, 'MISSING_CHAR', 'Implicit map keys need to be followed by map values');
            if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair.Pair(keyNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
    }
    if (commentEnd && commentEnd < offset)
        onError(commentEnd, 'IMPOSSIBLE', 'Map comment with trailing content');
    map.range = [bm.offset, offset, commentEnd ?? offset];
    return map;
}

exports.resolveBlockMap = resolveBlockMap;


/***/ }),

/***/ 8913:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

function resolveBlockScalar(ctx, scalar, onError) {
    const start = scalar.offset;
    const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
    if (!header)
        return { value: '', type: null, comment: '', range: [start, start, start] };
    const type = header.mode === '>' ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
    const lines = scalar.source ? splitLines(scalar.source) : [];
    // determine the end of content & start of chomping
    let chompStart = lines.length;
    for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === '' || content === '\r')
            chompStart = i;
        else
            break;
    }
    // shortcut for empty contents
    if (chompStart === 0) {
        const value = header.chomp === '+' && lines.length > 0
            ? '\n'.repeat(Math.max(1, lines.length - 1))
            : '';
        let end = start + header.length;
        if (scalar.source)
            end += scalar.source.length;
        return { value, type, comment: header.comment, range: [start, end, end] };
    }
    // find the indentation level to trim from start
    let trimIndent = scalar.indent + header.indent;
    let offset = scalar.offset + header.length;
    let contentStart = 0;
    for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === '' || content === '\r') {
            if (header.indent === 0 && indent.length > trimIndent)
                trimIndent = indent.length;
        }
        else {
            if (indent.length < trimIndent) {
                const message = 'Block scalars with more-indented leading empty lines must use an explicit indentation indicator';
                onError(offset + indent.length, 'MISSING_CHAR', message);
            }
            if (header.indent === 0)
                trimIndent = indent.length;
            contentStart = i;
            if (trimIndent === 0 && !ctx.atRoot) {
                const message = 'Block scalar values in collections must be indented';
                onError(offset, 'BAD_INDENT', message);
            }
            break;
        }
        offset += indent.length + content.length + 1;
    }
    // include trailing more-indented empty lines in content
    for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
            chompStart = i + 1;
    }
    let value = '';
    let sep = '';
    let prevMoreIndented = false;
    // leading whitespace is kept intact
    for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + '\n';
    for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === '\r';
        if (crlf)
            content = content.slice(0, -1);
        /* istanbul ignore if already caught in lexer */
        if (content && indent.length < trimIndent) {
            const src = header.indent
                ? 'explicit indentation indicator'
                : 'first line';
            const message = `Block scalar lines must not be less indented than their ${src}`;
            onError(offset - content.length - (crlf ? 2 : 1), 'BAD_INDENT', message);
            indent = '';
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
        }
        else if (indent.length > trimIndent || content[0] === '\t') {
            // more-indented content within a folded block
            if (sep === ' ')
                sep = '\n';
            else if (!prevMoreIndented && sep === '\n')
                sep = '\n\n';
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
            prevMoreIndented = true;
        }
        else if (content === '') {
            // empty line
            if (sep === '\n')
                value += '\n';
            else
                sep = '\n';
        }
        else {
            value += sep + content;
            sep = ' ';
            prevMoreIndented = false;
        }
    }
    switch (header.chomp) {
        case '-':
            break;
        case '+':
            for (let i = chompStart; i < lines.length; ++i)
                value += '\n' + lines[i][0].slice(trimIndent);
            if (value[value.length - 1] !== '\n')
                value += '\n';
            break;
        default:
            value += '\n';
    }
    const end = start + header.length + scalar.source.length;
    return { value, type, comment: header.comment, range: [start, end, end] };
}
function parseBlockScalarHeader({ offset, props }, strict, onError) {
    /* istanbul ignore if should not happen */
    if (props[0].type !== 'block-scalar-header') {
        onError(props[0], 'IMPOSSIBLE', 'Block scalar header not found');
        return null;
    }
    const { source } = props[0];
    const mode = source[0];
    let indent = 0;
    let chomp = '';
    let error = -1;
    for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === '-' || ch === '+'))
            chomp = ch;
        else {
            const n = Number(ch);
            if (!indent && n)
                indent = n;
            else if (error === -1)
                error = offset + i;
        }
    }
    if (error !== -1)
        onError(error, 'UNEXPECTED_TOKEN', `Block scalar header includes extra characters: ${source}`);
    let hasSpace = false;
    let comment = '';
    let length = source.length;
    for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
            case 'space':
                hasSpace = true;
            // fallthrough
            case 'newline':
                length += token.source.length;
                break;
            case 'comment':
                if (strict && !hasSpace) {
                    const message = 'Comments must be separated from other tokens by white space characters';
                    onError(token, 'MISSING_CHAR', message);
                }
                length += token.source.length;
                comment = token.source.substring(1);
                break;
            case 'error':
                onError(token, 'UNEXPECTED_TOKEN', token.message);
                length += token.source.length;
                break;
            /* istanbul ignore next should not happen */
            default: {
                const message = `Unexpected token in block scalar header: ${token.type}`;
                onError(token, 'UNEXPECTED_TOKEN', message);
                const ts = token.source;
                if (ts && typeof ts === 'string')
                    length += ts.length;
            }
        }
    }
    return { mode, indent, chomp, comment, length };
}
/** @returns Array of lines split up as `[indent, content]` */
function splitLines(source) {
    const split = source.split(/\n( *)/);
    const first = split[0];
    const m = first.match(/^( *)/);
    const line0 = m?.[1]
        ? [m[1], first.slice(m[1].length)]
        : ['', first];
    const lines = [line0];
    for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
    return lines;
}

exports.resolveBlockScalar = resolveBlockScalar;


/***/ }),

/***/ 334:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var YAMLSeq = __nccwpck_require__(2223);
var resolveProps = __nccwpck_require__(4631);
var utilFlowIndentCheck = __nccwpck_require__(4051);

function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
    const seq = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = bs.offset;
    let commentEnd = null;
    for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
            indicator: 'seq-item-ind',
            next: value,
            offset,
            onError,
            parentIndent: bs.indent,
            startOnNewline: true
        });
        if (!props.found) {
            if (props.anchor || props.tag || value) {
                if (value?.type === 'block-seq')
                    onError(props.end, 'BAD_INDENT', 'All sequence items must start at the same column');
                else
                    onError(offset, 'MISSING_CHAR', 'Sequence item without - indicator');
            }
            else {
                commentEnd = props.end;
                if (props.comment)
                    seq.comment = props.comment;
                continue;
            }
        }
        const node = value
            ? composeNode(ctx, value, props, onError)
            : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
    }
    seq.range = [bs.offset, offset, commentEnd ?? offset];
    return seq;
}

exports.resolveBlockSeq = resolveBlockSeq;


/***/ }),

/***/ 7788:
/***/ ((__unused_webpack_module, exports) => {



function resolveEnd(end, offset, reqSpace, onError) {
    let comment = '';
    if (end) {
        let hasSpace = false;
        let sep = '';
        for (const token of end) {
            const { source, type } = token;
            switch (type) {
                case 'space':
                    hasSpace = true;
                    break;
                case 'comment': {
                    if (reqSpace && !hasSpace)
                        onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                    const cb = source.substring(1) || ' ';
                    if (!comment)
                        comment = cb;
                    else
                        comment += sep + cb;
                    sep = '';
                    break;
                }
                case 'newline':
                    if (comment)
                        sep += source;
                    hasSpace = true;
                    break;
                default:
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${type} at node end`);
            }
            offset += source.length;
        }
    }
    return { comment, offset };
}

exports.resolveEnd = resolveEnd;


/***/ }),

/***/ 3142:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var resolveEnd = __nccwpck_require__(7788);
var resolveProps = __nccwpck_require__(4631);
var utilContainsNewline = __nccwpck_require__(9499);
var utilMapIncludes = __nccwpck_require__(1187);

const blockMsg = 'Block collections are not allowed within flow collections';
const isBlock = (token) => token && (token.type === 'block-map' || token.type === 'block-seq');
function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
    const isMap = fc.start.source === '{';
    const fcName = isMap ? 'flow map' : 'flow sequence';
    const NodeClass = (tag?.nodeClass ?? (isMap ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq));
    const coll = new NodeClass(ctx.schema);
    coll.flow = true;
    const atRoot = ctx.atRoot;
    if (atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = fc.offset + fc.start.source.length;
    for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep, value } = collItem;
        const props = resolveProps.resolveProps(start, {
            flow: fcName,
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
        });
        if (!props.found) {
            if (!props.anchor && !props.tag && !sep && !value) {
                if (i === 0 && props.comma)
                    onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
                else if (i < fc.items.length - 1)
                    onError(props.start, 'UNEXPECTED_TOKEN', `Unexpected empty item in ${fcName}`);
                if (props.comment) {
                    if (coll.comment)
                        coll.comment += '\n' + props.comment;
                    else
                        coll.comment = props.comment;
                }
                offset = props.end;
                continue;
            }
            if (!isMap && ctx.options.strict && utilContainsNewline.containsNewline(key))
                onError(key, // checked by containsNewline()
                'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
        }
        if (i === 0) {
            if (props.comma)
                onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
        }
        else {
            if (!props.comma)
                onError(props.start, 'MISSING_CHAR', `Missing , between ${fcName} items`);
            if (props.comment) {
                let prevItemComment = '';
                loop: for (const st of start) {
                    switch (st.type) {
                        case 'comma':
                        case 'space':
                            break;
                        case 'comment':
                            prevItemComment = st.source.substring(1);
                            break loop;
                        default:
                            break loop;
                    }
                }
                if (prevItemComment) {
                    let prev = coll.items[coll.items.length - 1];
                    if (identity.isPair(prev))
                        prev = prev.value ?? prev.key;
                    if (prev.comment)
                        prev.comment += '\n' + prevItemComment;
                    else
                        prev.comment = prevItemComment;
                    props.comment = props.comment.substring(prevItemComment.length + 1);
                }
            }
        }
        if (!isMap && !sep && !props.found) {
            // item is a value in a seq
            // → key & sep are empty, start does not include ? or :
            const valueNode = value
                ? composeNode(ctx, value, props, onError)
                : composeEmptyNode(ctx, props.end, sep, null, props, onError);
            coll.items.push(valueNode);
            offset = valueNode.range[2];
            if (isBlock(value))
                onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
        }
        else {
            // item is a key+value pair
            // key value
            ctx.atKey = true;
            const keyStart = props.end;
            const keyNode = key
                ? composeNode(ctx, key, props, onError)
                : composeEmptyNode(ctx, keyStart, start, null, props, onError);
            if (isBlock(key))
                onError(keyNode.range, 'BLOCK_IN_FLOW', blockMsg);
            ctx.atKey = false;
            // value properties
            const valueProps = resolveProps.resolveProps(sep ?? [], {
                flow: fcName,
                indicator: 'map-value-ind',
                next: value,
                offset: keyNode.range[2],
                onError,
                parentIndent: fc.indent,
                startOnNewline: false
            });
            if (valueProps.found) {
                if (!isMap && !props.found && ctx.options.strict) {
                    if (sep)
                        for (const st of sep) {
                            if (st === valueProps.found)
                                break;
                            if (st.type === 'newline') {
                                onError(st, 'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
                                break;
                            }
                        }
                    if (props.start < valueProps.found.offset - 1024)
                        onError(valueProps.found, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit flow sequence key');
                }
            }
            else if (value) {
                if ('source' in value && value.source?.[0] === ':')
                    onError(value, 'MISSING_CHAR', `Missing space after : in ${fcName}`);
                else
                    onError(valueProps.start, 'MISSING_CHAR', `Missing , or : between ${fcName} items`);
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : valueProps.found
                    ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError)
                    : null;
            if (valueNode) {
                if (isBlock(value))
                    onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
            }
            else if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair.Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            if (isMap) {
                const map = coll;
                if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
                    onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
                map.items.push(pair);
            }
            else {
                const map = new YAMLMap.YAMLMap(ctx.schema);
                map.flow = true;
                map.items.push(pair);
                const endRange = (valueNode ?? keyNode).range;
                map.range = [keyNode.range[0], endRange[1], endRange[2]];
                coll.items.push(map);
            }
            offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
    }
    const expectedEnd = isMap ? '}' : ']';
    const [ce, ...ee] = fc.end;
    let cePos = offset;
    if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
    else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot
            ? `${name} must end with a ${expectedEnd}`
            : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? 'MISSING_CHAR' : 'BAD_INDENT', msg);
        if (ce && ce.source.length !== 1)
            ee.unshift(ce);
    }
    if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
            if (coll.comment)
                coll.comment += '\n' + end.comment;
            else
                coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
    }
    else {
        coll.range = [fc.offset, cePos, cePos];
    }
    return coll;
}

exports.resolveFlowCollection = resolveFlowCollection;


/***/ }),

/***/ 6842:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var resolveEnd = __nccwpck_require__(7788);

function resolveFlowScalar(scalar, strict, onError) {
    const { offset, type, source, end } = scalar;
    let _type;
    let value;
    const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
    switch (type) {
        case 'scalar':
            _type = Scalar.Scalar.PLAIN;
            value = plainValue(source, _onError);
            break;
        case 'single-quoted-scalar':
            _type = Scalar.Scalar.QUOTE_SINGLE;
            value = singleQuotedValue(source, _onError);
            break;
        case 'double-quoted-scalar':
            _type = Scalar.Scalar.QUOTE_DOUBLE;
            value = doubleQuotedValue(source, _onError);
            break;
        /* istanbul ignore next should not happen */
        default:
            onError(scalar, 'UNEXPECTED_TOKEN', `Expected a flow scalar value, but found: ${type}`);
            return {
                value: '',
                type: null,
                comment: '',
                range: [offset, offset + source.length, offset + source.length]
            };
    }
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
    return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
    };
}
function plainValue(source, onError) {
    let badChar = '';
    switch (source[0]) {
        /* istanbul ignore next should not happen */
        case '\t':
            badChar = 'a tab character';
            break;
        case ',':
            badChar = 'flow indicator character ,';
            break;
        case '%':
            badChar = 'directive indicator character %';
            break;
        case '|':
        case '>': {
            badChar = `block scalar indicator ${source[0]}`;
            break;
        }
        case '@':
        case '`': {
            badChar = `reserved character ${source[0]}`;
            break;
        }
    }
    if (badChar)
        onError(0, 'BAD_SCALAR_START', `Plain value cannot start with ${badChar}`);
    return unfoldLines(source);
}
function singleQuotedValue(source, onError) {
    if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, 'MISSING_CHAR', "Missing closing 'quote");
    return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
}
function unfoldLines(source) {
    const line = /(.*?)\r?\n/sy;
    let match = line.exec(source);
    if (!match)
        return source;
    /**
     * The negative lookbehinds in these RegExps are to
     * prevent causing a polynomial search time in certain cases.
     *
     * The try-catch is for Safari < 16.4 and other old browsers:
     * https://caniuse.com/js-regexp-lookbehind
     */
    let trimEnd, trimBoth;
    try {
        trimEnd = new RegExp('(?<![ \t])[ \t]+$');
        trimBoth = new RegExp('^[ \t]+|(?<![ \t])[ \t]+$', 'g');
    }
    catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
    }
    let res = match[1].replace(trimEnd, '');
    let sep = ' ';
    let pos = line.lastIndex;
    while ((match = line.exec(source))) {
        const lm = match[1].replace(trimBoth, '');
        if (lm === '') {
            if (sep === '\n')
                res += sep;
            else
                sep = '\n';
        }
        else {
            res += sep + lm;
            sep = ' ';
        }
        pos = line.lastIndex;
    }
    const last = /[ \t]*(.*)/sy;
    last.lastIndex = pos;
    match = last.exec(source);
    return res + sep + (match?.[1] ?? '');
}
function doubleQuotedValue(source, onError) {
    let res = '';
    for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === '\r' && source[i + 1] === '\n')
            continue;
        if (ch === '\n') {
            const { fold, offset } = foldNewline(source, i);
            res += fold;
            i = offset;
        }
        else if (ch === '\\') {
            let next = source[++i];
            const cc = escapeCodes[next];
            if (cc)
                res += cc;
            else if (next === '\n') {
                // skip escaped newlines, but still trim the following line
                next = source[i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === '\r' && source[i + 1] === '\n') {
                // skip escaped CRLF newlines, but still trim the following line
                next = source[++i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === 'x' || next === 'u' || next === 'U') {
                const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
                res += parseCharCode(source, i + 1, length, onError);
                i += length;
            }
            else {
                const raw = source.substr(i - 1, 2);
                onError(i - 1, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
                res += raw;
            }
        }
        else if (ch === ' ' || ch === '\t') {
            // trim trailing whitespace
            const wsStart = i;
            let next = source[i + 1];
            while (next === ' ' || next === '\t')
                next = source[++i + 1];
            if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n'))
                res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        }
        else {
            res += ch;
        }
    }
    if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, 'MISSING_CHAR', 'Missing closing "quote');
    return res;
}
/**
 * Fold a single newline into a space, multiple newlines to N - 1 newlines.
 * Presumes `source[offset] === '\n'`
 */
function foldNewline(source, offset) {
    let fold = '';
    let ch = source[offset + 1];
    while (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        if (ch === '\r' && source[offset + 2] !== '\n')
            break;
        if (ch === '\n')
            fold += '\n';
        offset += 1;
        ch = source[offset + 1];
    }
    if (!fold)
        fold = ' ';
    return { fold, offset };
}
const escapeCodes = {
    '0': '\0', // null character
    a: '\x07', // bell character
    b: '\b', // backspace
    e: '\x1b', // escape character
    f: '\f', // form feed
    n: '\n', // line feed
    r: '\r', // carriage return
    t: '\t', // horizontal tab
    v: '\v', // vertical tab
    N: '\u0085', // Unicode next line
    _: '\u00a0', // Unicode non-breaking space
    L: '\u2028', // Unicode line separator
    P: '\u2029', // Unicode paragraph separator
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    '\t': '\t'
};
function parseCharCode(source, offset, length, onError) {
    const cc = source.substr(offset, length);
    const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
    const code = ok ? parseInt(cc, 16) : NaN;
    try {
        return String.fromCodePoint(code);
    }
    catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
        return raw;
    }
}

exports.resolveFlowScalar = resolveFlowScalar;


/***/ }),

/***/ 4631:
/***/ ((__unused_webpack_module, exports) => {



function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
    let spaceBefore = false;
    let atNewline = startOnNewline;
    let hasSpace = startOnNewline;
    let comment = '';
    let commentSep = '';
    let hasNewline = false;
    let reqSpace = false;
    let tab = null;
    let anchor = null;
    let tag = null;
    let newlineAfterProp = null;
    let comma = null;
    let found = null;
    let start = null;
    for (const token of tokens) {
        if (reqSpace) {
            if (token.type !== 'space' &&
                token.type !== 'newline' &&
                token.type !== 'comma')
                onError(token.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
            reqSpace = false;
        }
        if (tab) {
            if (atNewline && token.type !== 'comment' && token.type !== 'newline') {
                onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
            }
            tab = null;
        }
        switch (token.type) {
            case 'space':
                // At the doc level, tabs at line start may be parsed
                // as leading white space rather than indentation.
                // In a flow collection, only the parser handles indent.
                if (!flow &&
                    (indicator !== 'doc-start' || next?.type !== 'flow-collection') &&
                    token.source.includes('\t')) {
                    tab = token;
                }
                hasSpace = true;
                break;
            case 'comment': {
                if (!hasSpace)
                    onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                const cb = token.source.substring(1) || ' ';
                if (!comment)
                    comment = cb;
                else
                    comment += commentSep + cb;
                commentSep = '';
                atNewline = false;
                break;
            }
            case 'newline':
                if (atNewline) {
                    if (comment)
                        comment += token.source;
                    else if (!found || indicator !== 'seq-item-ind')
                        spaceBefore = true;
                }
                else
                    commentSep += token.source;
                atNewline = true;
                hasNewline = true;
                if (anchor || tag)
                    newlineAfterProp = token;
                hasSpace = true;
                break;
            case 'anchor':
                if (anchor)
                    onError(token, 'MULTIPLE_ANCHORS', 'A node can have at most one anchor');
                if (token.source.endsWith(':'))
                    onError(token.offset + token.source.length - 1, 'BAD_ALIAS', 'Anchor ending in : is ambiguous', true);
                anchor = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            case 'tag': {
                if (tag)
                    onError(token, 'MULTIPLE_TAGS', 'A node can have at most one tag');
                tag = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            }
            case indicator:
                // Could here handle preceding comments differently
                if (anchor || tag)
                    onError(token, 'BAD_PROP_ORDER', `Anchors and tags must be after the ${token.source} indicator`);
                if (found)
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.source} in ${flow ?? 'collection'}`);
                found = token;
                atNewline =
                    indicator === 'seq-item-ind' || indicator === 'explicit-key-ind';
                hasSpace = false;
                break;
            case 'comma':
                if (flow) {
                    if (comma)
                        onError(token, 'UNEXPECTED_TOKEN', `Unexpected , in ${flow}`);
                    comma = token;
                    atNewline = false;
                    hasSpace = false;
                    break;
                }
            // else fallthrough
            default:
                onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.type} token`);
                atNewline = false;
                hasSpace = false;
        }
    }
    const last = tokens[tokens.length - 1];
    const end = last ? last.offset + last.source.length : offset;
    if (reqSpace &&
        next &&
        next.type !== 'space' &&
        next.type !== 'newline' &&
        next.type !== 'comma' &&
        (next.type !== 'scalar' || next.source !== '')) {
        onError(next.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
    }
    if (tab &&
        ((atNewline && tab.indent <= parentIndent) ||
            next?.type === 'block-map' ||
            next?.type === 'block-seq'))
        onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
    return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
    };
}

exports.resolveProps = resolveProps;


/***/ }),

/***/ 9499:
/***/ ((__unused_webpack_module, exports) => {



function containsNewline(key) {
    if (!key)
        return null;
    switch (key.type) {
        case 'alias':
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            if (key.source.includes('\n'))
                return true;
            if (key.end)
                for (const st of key.end)
                    if (st.type === 'newline')
                        return true;
            return false;
        case 'flow-collection':
            for (const it of key.items) {
                for (const st of it.start)
                    if (st.type === 'newline')
                        return true;
                if (it.sep)
                    for (const st of it.sep)
                        if (st.type === 'newline')
                            return true;
                if (containsNewline(it.key) || containsNewline(it.value))
                    return true;
            }
            return false;
        default:
            return true;
    }
}

exports.containsNewline = containsNewline;


/***/ }),

/***/ 2599:
/***/ ((__unused_webpack_module, exports) => {



function emptyScalarPosition(offset, before, pos) {
    if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
            let st = before[i];
            switch (st.type) {
                case 'space':
                case 'comment':
                case 'newline':
                    offset -= st.source.length;
                    continue;
            }
            // Technically, an empty scalar is immediately after the last non-empty
            // node, but it's more useful to place it after any whitespace.
            st = before[++i];
            while (st?.type === 'space') {
                offset += st.source.length;
                st = before[++i];
            }
            break;
        }
    }
    return offset;
}

exports.emptyScalarPosition = emptyScalarPosition;


/***/ }),

/***/ 4051:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var utilContainsNewline = __nccwpck_require__(9499);

function flowIndentCheck(indent, fc, onError) {
    if (fc?.type === 'flow-collection') {
        const end = fc.end[0];
        if (end.indent === indent &&
            (end.source === ']' || end.source === '}') &&
            utilContainsNewline.containsNewline(fc)) {
            const msg = 'Flow end indicator should be more indented than parent';
            onError(end, 'BAD_INDENT', msg, true);
        }
    }
}

exports.flowIndentCheck = flowIndentCheck;


/***/ }),

/***/ 1187:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

function mapIncludes(ctx, items, search) {
    const { uniqueKeys } = ctx.options;
    if (uniqueKeys === false)
        return false;
    const isEqual = typeof uniqueKeys === 'function'
        ? uniqueKeys
        : (a, b) => a === b || (identity.isScalar(a) && identity.isScalar(b) && a.value === b.value);
    return items.some(pair => isEqual(pair.key, search));
}

exports.mapIncludes = mapIncludes;


/***/ }),

/***/ 3021:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var toJS = __nccwpck_require__(4043);
var Schema = __nccwpck_require__(5840);
var stringifyDocument = __nccwpck_require__(6829);
var anchors = __nccwpck_require__(1596);
var applyReviver = __nccwpck_require__(3661);
var createNode = __nccwpck_require__(2404);
var directives = __nccwpck_require__(1342);

class Document {
    constructor(value, replacer, options) {
        /** A comment before this Document */
        this.commentBefore = null;
        /** A comment immediately after this Document */
        this.comment = null;
        /** Errors encountered during parsing. */
        this.errors = [];
        /** Warnings encountered during parsing. */
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === 'function' || Array.isArray(replacer)) {
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const opt = Object.assign({
            intAsBigInt: false,
            keepSourceTokens: false,
            logLevel: 'warn',
            prettyErrors: true,
            strict: true,
            stringKeys: false,
            uniqueKeys: true,
            version: '1.2'
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
            this.directives = options._directives.atDocument();
            if (this.directives.yaml.explicit)
                version = this.directives.yaml.version;
        }
        else
            this.directives = new directives.Directives({ version });
        this.setSchema(version, options);
        // @ts-expect-error We can't really know that this matches Contents.
        this.contents =
            value === undefined ? null : this.createNode(value, _replacer, options);
    }
    /**
     * Create a deep copy of this Document and its contents.
     *
     * Custom Node values that inherit from `Object` still refer to their original instances.
     */
    clone() {
        const copy = Object.create(Document.prototype, {
            [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
            copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        // @ts-expect-error We can't really know that this matches Contents.
        copy.contents = identity.isNode(this.contents)
            ? this.contents.clone(copy.schema)
            : this.contents;
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** Adds a value to the document. */
    add(value) {
        if (assertCollection(this.contents))
            this.contents.add(value);
    }
    /** Adds a value to the document. */
    addIn(path, value) {
        if (assertCollection(this.contents))
            this.contents.addIn(path, value);
    }
    /**
     * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
     *
     * If `node` already has an anchor, `name` is ignored.
     * Otherwise, the `node.anchor` value will be set to `name`,
     * or if an anchor with that name is already present in the document,
     * `name` will be used as a prefix for a new unique anchor.
     * If `name` is undefined, the generated anchor will use 'a' as a prefix.
     */
    createAlias(node, name) {
        if (!node.anchor) {
            const prev = anchors.anchorNames(this);
            node.anchor =
                // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
                !name || prev.has(name) ? anchors.findNewAnchor(name || 'a', prev) : name;
        }
        return new Alias.Alias(node.anchor);
    }
    createNode(value, replacer, options) {
        let _replacer = undefined;
        if (typeof replacer === 'function') {
            value = replacer.call({ '': value }, '', value);
            _replacer = replacer;
        }
        else if (Array.isArray(replacer)) {
            const keyToStr = (v) => typeof v === 'number' || v instanceof String || v instanceof Number;
            const asStr = replacer.filter(keyToStr).map(String);
            if (asStr.length > 0)
                replacer = replacer.concat(asStr);
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(this, 
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        anchorPrefix || 'a');
        const ctx = {
            aliasDuplicateObjects: aliasDuplicateObjects ?? true,
            keepUndefined: keepUndefined ?? false,
            onAnchor,
            onTagObj,
            replacer: _replacer,
            schema: this.schema,
            sourceObjects
        };
        const node = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node))
            node.flow = true;
        setAnchors();
        return node;
    }
    /**
     * Convert a key and a value into a `Pair` using the current schema,
     * recursively wrapping all values as `Scalar` or `Collection` nodes.
     */
    createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        if (Collection.isEmptyPath(path)) {
            if (this.contents == null)
                return false;
            // @ts-expect-error Presumed impossible if Strict extends false
            this.contents = null;
            return true;
        }
        return assertCollection(this.contents)
            ? this.contents.deleteIn(path)
            : false;
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    get(key, keepScalar) {
        return identity.isCollection(this.contents)
            ? this.contents.get(key, keepScalar)
            : undefined;
    }
    /**
     * Returns item at `path`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        if (Collection.isEmptyPath(path))
            return !keepScalar && identity.isScalar(this.contents)
                ? this.contents.value
                : this.contents;
        return identity.isCollection(this.contents)
            ? this.contents.getIn(path, keepScalar)
            : undefined;
    }
    /**
     * Checks if the document includes a value with the key `key`.
     */
    has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
    }
    /**
     * Checks if the document includes a value at `path`.
     */
    hasIn(path) {
        if (Collection.isEmptyPath(path))
            return this.contents !== undefined;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    set(key, value) {
        if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = Collection.collectionFromPath(this.schema, [key], value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.set(key, value);
        }
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        if (Collection.isEmptyPath(path)) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = value;
        }
        else if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.setIn(path, value);
        }
    }
    /**
     * Change the YAML version and schema used by the document.
     * A `null` version disables support for directives, explicit tags, anchors, and aliases.
     * It also requires the `schema` option to be given as a `Schema` instance value.
     *
     * Overrides all previously set schema options.
     */
    setSchema(version, options = {}) {
        if (typeof version === 'number')
            version = String(version);
        let opt;
        switch (version) {
            case '1.1':
                if (this.directives)
                    this.directives.yaml.version = '1.1';
                else
                    this.directives = new directives.Directives({ version: '1.1' });
                opt = { resolveKnownTags: false, schema: 'yaml-1.1' };
                break;
            case '1.2':
            case 'next':
                if (this.directives)
                    this.directives.yaml.version = version;
                else
                    this.directives = new directives.Directives({ version });
                opt = { resolveKnownTags: true, schema: 'core' };
                break;
            case null:
                if (this.directives)
                    delete this.directives;
                opt = null;
                break;
            default: {
                const sv = JSON.stringify(version);
                throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
            }
        }
        // Not using `instanceof Schema` to allow for duck typing
        if (options.schema instanceof Object)
            this.schema = options.schema;
        else if (opt)
            this.schema = new Schema.Schema(Object.assign(opt, options));
        else
            throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
    }
    // json & jsonArg are only used from toJSON()
    toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
            anchors: new Map(),
            doc: this,
            keep: !json,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
            : res;
    }
    /**
     * A JSON representation of the document `contents`.
     *
     * @param jsonArg Used by `JSON.stringify` to indicate the array index or
     *   property name.
     */
    toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
    }
    /** A YAML representation of the document. */
    toString(options = {}) {
        if (this.errors.length > 0)
            throw new Error('Document with errors cannot be stringified');
        if ('indent' in options &&
            (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
            const s = JSON.stringify(options.indent);
            throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
    }
}
function assertCollection(contents) {
    if (identity.isCollection(contents))
        return true;
    throw new Error('Expected a YAML collection as document contents');
}

exports.Document = Document;


/***/ }),

/***/ 1596:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var visit = __nccwpck_require__(204);

/**
 * Verify that the input string is a valid anchor.
 *
 * Will throw on errors.
 */
function anchorIsValid(anchor) {
    if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
    }
    return true;
}
function anchorNames(root) {
    const anchors = new Set();
    visit.visit(root, {
        Value(_key, node) {
            if (node.anchor)
                anchors.add(node.anchor);
        }
    });
    return anchors;
}
/** Find a new anchor name with the given `prefix` and a one-indexed suffix. */
function findNewAnchor(prefix, exclude) {
    for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
            return name;
    }
}
function createNodeAnchors(doc, prefix) {
    const aliasObjects = [];
    const sourceObjects = new Map();
    let prevAnchors = null;
    return {
        onAnchor: (source) => {
            aliasObjects.push(source);
            prevAnchors ?? (prevAnchors = anchorNames(doc));
            const anchor = findNewAnchor(prefix, prevAnchors);
            prevAnchors.add(anchor);
            return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
            for (const source of aliasObjects) {
                const ref = sourceObjects.get(source);
                if (typeof ref === 'object' &&
                    ref.anchor &&
                    (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
                    ref.node.anchor = ref.anchor;
                }
                else {
                    const error = new Error('Failed to resolve repeated object (this should not happen)');
                    error.source = source;
                    throw error;
                }
            }
        },
        sourceObjects
    };
}

exports.anchorIsValid = anchorIsValid;
exports.anchorNames = anchorNames;
exports.createNodeAnchors = createNodeAnchors;
exports.findNewAnchor = findNewAnchor;


/***/ }),

/***/ 3661:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Applies the JSON.parse reviver algorithm as defined in the ECMA-262 spec,
 * in section 24.5.1.1 "Runtime Semantics: InternalizeJSONProperty" of the
 * 2021 edition: https://tc39.es/ecma262/#sec-json.parse
 *
 * Includes extensions for handling Map and Set objects.
 */
function applyReviver(reviver, obj, key, val) {
    if (val && typeof val === 'object') {
        if (Array.isArray(val)) {
            for (let i = 0, len = val.length; i < len; ++i) {
                const v0 = val[i];
                const v1 = applyReviver(reviver, val, String(i), v0);
                // eslint-disable-next-line @typescript-eslint/no-array-delete
                if (v1 === undefined)
                    delete val[i];
                else if (v1 !== v0)
                    val[i] = v1;
            }
        }
        else if (val instanceof Map) {
            for (const k of Array.from(val.keys())) {
                const v0 = val.get(k);
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    val.delete(k);
                else if (v1 !== v0)
                    val.set(k, v1);
            }
        }
        else if (val instanceof Set) {
            for (const v0 of Array.from(val)) {
                const v1 = applyReviver(reviver, val, v0, v0);
                if (v1 === undefined)
                    val.delete(v0);
                else if (v1 !== v0) {
                    val.delete(v0);
                    val.add(v1);
                }
            }
        }
        else {
            for (const [k, v0] of Object.entries(val)) {
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    delete val[k];
                else if (v1 !== v0)
                    val[k] = v1;
            }
        }
    }
    return reviver.call(obj, key, val);
}

exports.applyReviver = applyReviver;


/***/ }),

/***/ 2404:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);

const defaultTagPrefix = 'tag:yaml.org,2002:';
function findTagObject(value, tagName, tags) {
    if (tagName) {
        const match = tags.filter(t => t.tag === tagName);
        const tagObj = match.find(t => !t.format) ?? match[0];
        if (!tagObj)
            throw new Error(`Tag ${tagName} not found`);
        return tagObj;
    }
    return tags.find(t => t.identify?.(value) && !t.format);
}
function createNode(value, tagName, ctx) {
    if (identity.isDocument(value))
        value = value.contents;
    if (identity.isNode(value))
        return value;
    if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
    }
    if (value instanceof String ||
        value instanceof Number ||
        value instanceof Boolean ||
        (typeof BigInt !== 'undefined' && value instanceof BigInt) // not supported everywhere
    ) {
        // https://tc39.es/ecma262/#sec-serializejsonproperty
        value = value.valueOf();
    }
    const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
    // Detect duplicate references to the same object & use Alias nodes for all
    // after first. The `ref` wrapper allows for circular references to resolve.
    let ref = undefined;
    if (aliasDuplicateObjects && value && typeof value === 'object') {
        ref = sourceObjects.get(value);
        if (ref) {
            ref.anchor ?? (ref.anchor = onAnchor(value));
            return new Alias.Alias(ref.anchor);
        }
        else {
            ref = { anchor: null, node: null };
            sourceObjects.set(value, ref);
        }
    }
    if (tagName?.startsWith('!!'))
        tagName = defaultTagPrefix + tagName.slice(2);
    let tagObj = findTagObject(value, tagName, schema.tags);
    if (!tagObj) {
        if (value && typeof value.toJSON === 'function') {
            // eslint-disable-next-line @typescript-eslint/no-unsafe-call
            value = value.toJSON();
        }
        if (!value || typeof value !== 'object') {
            const node = new Scalar.Scalar(value);
            if (ref)
                ref.node = node;
            return node;
        }
        tagObj =
            value instanceof Map
                ? schema[identity.MAP]
                : Symbol.iterator in Object(value)
                    ? schema[identity.SEQ]
                    : schema[identity.MAP];
    }
    if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
    }
    const node = tagObj?.createNode
        ? tagObj.createNode(ctx.schema, value, ctx)
        : typeof tagObj?.nodeClass?.from === 'function'
            ? tagObj.nodeClass.from(ctx.schema, value, ctx)
            : new Scalar.Scalar(value);
    if (tagName)
        node.tag = tagName;
    else if (!tagObj.default)
        node.tag = tagObj.tag;
    if (ref)
        ref.node = node;
    return node;
}

exports.createNode = createNode;


/***/ }),

/***/ 1342:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var visit = __nccwpck_require__(204);

const escapeChars = {
    '!': '%21',
    ',': '%2C',
    '[': '%5B',
    ']': '%5D',
    '{': '%7B',
    '}': '%7D'
};
const escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, ch => escapeChars[ch]);
class Directives {
    constructor(yaml, tags) {
        /**
         * The directives-end/doc-start marker `---`. If `null`, a marker may still be
         * included in the document's stringified representation.
         */
        this.docStart = null;
        /** The doc-end marker `...`.  */
        this.docEnd = false;
        this.yaml = Object.assign({}, Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, Directives.defaultTags, tags);
    }
    clone() {
        const copy = new Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
    }
    /**
     * During parsing, get a Directives instance for the current document and
     * update the stream state according to the current version's spec.
     */
    atDocument() {
        const res = new Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
            case '1.1':
                this.atNextDocument = true;
                break;
            case '1.2':
                this.atNextDocument = false;
                this.yaml = {
                    explicit: Directives.defaultYaml.explicit,
                    version: '1.2'
                };
                this.tags = Object.assign({}, Directives.defaultTags);
                break;
        }
        return res;
    }
    /**
     * @param onError - May be called even if the action was successful
     * @returns `true` on success
     */
    add(line, onError) {
        if (this.atNextDocument) {
            this.yaml = { explicit: Directives.defaultYaml.explicit, version: '1.1' };
            this.tags = Object.assign({}, Directives.defaultTags);
            this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
            case '%TAG': {
                if (parts.length !== 2) {
                    onError(0, '%TAG directive should contain exactly two parts');
                    if (parts.length < 2)
                        return false;
                }
                const [handle, prefix] = parts;
                this.tags[handle] = prefix;
                return true;
            }
            case '%YAML': {
                this.yaml.explicit = true;
                if (parts.length !== 1) {
                    onError(0, '%YAML directive should contain exactly one part');
                    return false;
                }
                const [version] = parts;
                if (version === '1.1' || version === '1.2') {
                    this.yaml.version = version;
                    return true;
                }
                else {
                    const isValid = /^\d+\.\d+$/.test(version);
                    onError(6, `Unsupported YAML version ${version}`, isValid);
                    return false;
                }
            }
            default:
                onError(0, `Unknown directive ${name}`, true);
                return false;
        }
    }
    /**
     * Resolves a tag, matching handles to those defined in %TAG directives.
     *
     * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
     *   `'!local'` tag, or `null` if unresolvable.
     */
    tagName(source, onError) {
        if (source === '!')
            return '!'; // non-specific tag
        if (source[0] !== '!') {
            onError(`Not a valid tag: ${source}`);
            return null;
        }
        if (source[1] === '<') {
            const verbatim = source.slice(2, -1);
            if (verbatim === '!' || verbatim === '!!') {
                onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
                return null;
            }
            if (source[source.length - 1] !== '>')
                onError('Verbatim tags must end with a >');
            return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
            onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
            try {
                return prefix + decodeURIComponent(suffix);
            }
            catch (error) {
                onError(String(error));
                return null;
            }
        }
        if (handle === '!')
            return source; // local tag
        onError(`Could not resolve tag: ${source}`);
        return null;
    }
    /**
     * Given a fully resolved tag, returns its printable string form,
     * taking into account current tag prefixes and defaults.
     */
    tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
            if (tag.startsWith(prefix))
                return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === '!' ? tag : `!<${tag}>`;
    }
    toString(doc) {
        const lines = this.yaml.explicit
            ? [`%YAML ${this.yaml.version || '1.2'}`]
            : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
            const tags = {};
            visit.visit(doc.contents, (_key, node) => {
                if (identity.isNode(node) && node.tag)
                    tags[node.tag] = true;
            });
            tagNames = Object.keys(tags);
        }
        else
            tagNames = [];
        for (const [handle, prefix] of tagEntries) {
            if (handle === '!!' && prefix === 'tag:yaml.org,2002:')
                continue;
            if (!doc || tagNames.some(tn => tn.startsWith(prefix)))
                lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join('\n');
    }
}
Directives.defaultYaml = { explicit: false, version: '1.2' };
Directives.defaultTags = { '!!': 'tag:yaml.org,2002:' };

exports.Directives = Directives;


/***/ }),

/***/ 1464:
/***/ ((__unused_webpack_module, exports) => {



class YAMLError extends Error {
    constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
    }
}
class YAMLParseError extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLParseError', pos, code, message);
    }
}
class YAMLWarning extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLWarning', pos, code, message);
    }
}
const prettifyError = (src, lc) => (error) => {
    if (error.pos[0] === -1)
        return;
    error.linePos = error.pos.map(pos => lc.linePos(pos));
    const { line, col } = error.linePos[0];
    error.message += ` at line ${line}, column ${col}`;
    let ci = col - 1;
    let lineStr = src
        .substring(lc.lineStarts[line - 1], lc.lineStarts[line])
        .replace(/[\n\r]+$/, '');
    // Trim to max 80 chars, keeping col position near the middle
    if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = '…' + lineStr.substring(trimStart);
        ci -= trimStart - 1;
    }
    if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + '…';
    // Include previous line in context if pointing at line start
    if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        // Regexp won't match if start is trimmed
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
            prev = prev.substring(0, 79) + '…\n';
        lineStr = prev + lineStr;
    }
    if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error.linePos[1];
        if (end?.line === line && end.col > col) {
            count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = ' '.repeat(ci) + '^'.repeat(count);
        error.message += `:\n\n${lineStr}\n${pointer}\n`;
    }
};

exports.YAMLError = YAMLError;
exports.YAMLParseError = YAMLParseError;
exports.YAMLWarning = YAMLWarning;
exports.prettifyError = prettifyError;


/***/ }),

/***/ 8815:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

var __webpack_unused_export__;


var composer = __nccwpck_require__(9984);
var Document = __nccwpck_require__(3021);
var Schema = __nccwpck_require__(5840);
var errors = __nccwpck_require__(1464);
var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var cst = __nccwpck_require__(3461);
var lexer = __nccwpck_require__(361);
var lineCounter = __nccwpck_require__(6628);
var parser = __nccwpck_require__(3456);
var publicApi = __nccwpck_require__(4047);
var visit = __nccwpck_require__(204);



__webpack_unused_export__ = composer.Composer;
__webpack_unused_export__ = Document.Document;
__webpack_unused_export__ = Schema.Schema;
__webpack_unused_export__ = errors.YAMLError;
__webpack_unused_export__ = errors.YAMLParseError;
__webpack_unused_export__ = errors.YAMLWarning;
__webpack_unused_export__ = Alias.Alias;
__webpack_unused_export__ = identity.isAlias;
__webpack_unused_export__ = identity.isCollection;
__webpack_unused_export__ = identity.isDocument;
exports.jh = identity.isMap;
__webpack_unused_export__ = identity.isNode;
__webpack_unused_export__ = identity.isPair;
exports.jn = identity.isScalar;
exports.oP = identity.isSeq;
__webpack_unused_export__ = Pair.Pair;
__webpack_unused_export__ = Scalar.Scalar;
__webpack_unused_export__ = YAMLMap.YAMLMap;
__webpack_unused_export__ = YAMLSeq.YAMLSeq;
__webpack_unused_export__ = cst;
__webpack_unused_export__ = lexer.Lexer;
exports.HN = lineCounter.LineCounter;
__webpack_unused_export__ = parser.Parser;
__webpack_unused_export__ = publicApi.parse;
__webpack_unused_export__ = publicApi.parseAllDocuments;
exports.Tp = publicApi.parseDocument;
exports.As = publicApi.stringify;
__webpack_unused_export__ = visit.visit;
__webpack_unused_export__ = visit.visitAsync;


/***/ }),

/***/ 7249:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);

function debug(logLevel, ...messages) {
    if (logLevel === 'debug')
        console.log(...messages);
}
function warn(logLevel, warning) {
    if (logLevel === 'debug' || logLevel === 'warn') {
        if (typeof node_process.emitWarning === 'function')
            node_process.emitWarning(warning);
        else
            console.warn(warning);
    }
}

exports.debug = debug;
exports.warn = warn;


/***/ }),

/***/ 4065:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var anchors = __nccwpck_require__(1596);
var visit = __nccwpck_require__(204);
var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);
var toJS = __nccwpck_require__(4043);

class Alias extends Node.NodeBase {
    constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, 'tag', {
            set() {
                throw new Error('Alias nodes cannot have tags');
            }
        });
    }
    /**
     * Resolve the value of this alias within `doc`, finding the last
     * instance of the `source` anchor before this node.
     */
    resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
            throw new ReferenceError('Alias resolution is disabled');
        let nodes;
        if (ctx?.aliasResolveCache) {
            nodes = ctx.aliasResolveCache;
        }
        else {
            nodes = [];
            visit.visit(doc, {
                Node: (_key, node) => {
                    if (identity.isAlias(node) || identity.hasAnchor(node))
                        nodes.push(node);
                }
            });
            if (ctx)
                ctx.aliasResolveCache = nodes;
        }
        let found = undefined;
        for (const node of nodes) {
            if (node === this)
                break;
            if (node.anchor === this.source)
                found = node;
        }
        if (found && ctx) {
            const { anchors, doc, maxAliasCount } = ctx;
            let data = anchors.get(found);
            if (!data) {
                // Resolve anchors for Node.prototype.toJS()
                toJS.toJS(found, null, ctx);
                data = anchors.get(found);
            }
            /* istanbul ignore if */
            if (data?.res === undefined) {
                const msg = 'This should not happen: Alias anchor was not resolved?';
                throw new ReferenceError(msg);
            }
            if (maxAliasCount >= 0) {
                data.count += 1;
                if (data.aliasCount === 0)
                    data.aliasCount = getAliasCount(doc, found, anchors);
                if (data.count * data.aliasCount > maxAliasCount) {
                    const msg = 'Excessive alias count indicates a resource exhaustion attack';
                    throw new ReferenceError(msg);
                }
            }
        }
        return found;
    }
    toJSON(_arg, ctx) {
        if (!ctx)
            return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
    }
    toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
            anchors.anchorIsValid(this.source);
            if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
                const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
                throw new Error(msg);
            }
            if (ctx.implicitKey)
                return `${src} `;
        }
        return src;
    }
}
function getAliasCount(doc, node, anchors) {
    if (identity.isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors && source && anchors.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
    }
    else if (identity.isCollection(node)) {
        let count = 0;
        for (const item of node.items) {
            const c = getAliasCount(doc, item, anchors);
            if (c > count)
                count = c;
        }
        return count;
    }
    else if (identity.isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors);
        const vc = getAliasCount(doc, node.value, anchors);
        return Math.max(kc, vc);
    }
    return 1;
}

exports.Alias = Alias;


/***/ }),

/***/ 101:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);

function collectionFromPath(schema, path, value) {
    let v = value;
    for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === 'number' && Number.isInteger(k) && k >= 0) {
            const a = [];
            a[k] = v;
            v = a;
        }
        else {
            v = new Map([[k, v]]);
        }
    }
    return createNode.createNode(v, undefined, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
            throw new Error('This should not happen, please report a bug.');
        },
        schema,
        sourceObjects: new Map()
    });
}
// Type guard is intentionally a little wrong so as to be more useful,
// as it does not cover untypable empty non-string iterables (e.g. []).
const isEmptyPath = (path) => path == null ||
    (typeof path === 'object' && !!path[Symbol.iterator]().next().done);
class Collection extends Node.NodeBase {
    constructor(type, schema) {
        super(type);
        Object.defineProperty(this, 'schema', {
            value: schema,
            configurable: true,
            enumerable: false,
            writable: true
        });
    }
    /**
     * Create a copy of this collection.
     *
     * @param schema - If defined, overwrites the original's schema
     */
    clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
            copy.schema = schema;
        copy.items = copy.items.map(it => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /**
     * Adds a value to the collection. For `!!map` and `!!omap` the value must
     * be a Pair instance or a `{ key, value }` object, which may not have a key
     * that already exists in the map.
     */
    addIn(path, value) {
        if (isEmptyPath(path))
            this.add(value);
        else {
            const [key, ...rest] = path;
            const node = this.get(key, true);
            if (identity.isCollection(node))
                node.addIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
    /**
     * Removes a value from the collection.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.delete(key);
        const node = this.get(key, true);
        if (identity.isCollection(node))
            return node.deleteIn(rest);
        else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (rest.length === 0)
            return !keepScalar && identity.isScalar(node) ? node.value : node;
        else
            return identity.isCollection(node) ? node.getIn(rest, keepScalar) : undefined;
    }
    hasAllNullValues(allowScalar) {
        return this.items.every(node => {
            if (!identity.isPair(node))
                return false;
            const n = node.value;
            return (n == null ||
                (allowScalar &&
                    identity.isScalar(n) &&
                    n.value == null &&
                    !n.commentBefore &&
                    !n.comment &&
                    !n.tag));
        });
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     */
    hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.has(key);
        const node = this.get(key, true);
        return identity.isCollection(node) ? node.hasIn(rest) : false;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
            this.set(key, value);
        }
        else {
            const node = this.get(key, true);
            if (identity.isCollection(node))
                node.setIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
}

exports.Collection = Collection;
exports.collectionFromPath = collectionFromPath;
exports.isEmptyPath = isEmptyPath;


/***/ }),

/***/ 6673:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var applyReviver = __nccwpck_require__(3661);
var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);

class NodeBase {
    constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
    }
    /** Create a copy of this node.  */
    clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** A plain JavaScript representation of this node. */
    toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
            throw new TypeError('A document argument is required');
        const ctx = {
            anchors: new Map(),
            doc,
            keep: true,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
            : res;
    }
}

exports.NodeBase = NodeBase;


/***/ }),

/***/ 7165:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var stringifyPair = __nccwpck_require__(9748);
var addPairToJSMap = __nccwpck_require__(7104);
var identity = __nccwpck_require__(1127);

function createPair(key, value, ctx) {
    const k = createNode.createNode(key, undefined, ctx);
    const v = createNode.createNode(value, undefined, ctx);
    return new Pair(k, v);
}
class Pair {
    constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
    }
    clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
            key = key.clone(schema);
        if (identity.isNode(value))
            value = value.clone(schema);
        return new Pair(key, value);
    }
    toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
    }
    toString(ctx, onComment, onChompKeep) {
        return ctx?.doc
            ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep)
            : JSON.stringify(this);
    }
}

exports.Pair = Pair;
exports.createPair = createPair;


/***/ }),

/***/ 3301:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);
var toJS = __nccwpck_require__(4043);

const isScalarValue = (value) => !value || (typeof value !== 'function' && typeof value !== 'object');
class Scalar extends Node.NodeBase {
    constructor(value) {
        super(identity.SCALAR);
        this.value = value;
    }
    toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
    }
    toString() {
        return String(this.value);
    }
}
Scalar.BLOCK_FOLDED = 'BLOCK_FOLDED';
Scalar.BLOCK_LITERAL = 'BLOCK_LITERAL';
Scalar.PLAIN = 'PLAIN';
Scalar.QUOTE_DOUBLE = 'QUOTE_DOUBLE';
Scalar.QUOTE_SINGLE = 'QUOTE_SINGLE';

exports.Scalar = Scalar;
exports.isScalarValue = isScalarValue;


/***/ }),

/***/ 4454:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyCollection = __nccwpck_require__(1212);
var addPairToJSMap = __nccwpck_require__(7104);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);

function findPair(items, key) {
    const k = identity.isScalar(key) ? key.value : key;
    for (const it of items) {
        if (identity.isPair(it)) {
            if (it.key === key || it.key === k)
                return it;
            if (identity.isScalar(it.key) && it.key.value === k)
                return it;
        }
    }
    return undefined;
}
class YAMLMap extends Collection.Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:map';
    }
    constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
    }
    /**
     * A generic collection parsing method that can be extended
     * to other node classes that inherit from YAMLMap
     */
    static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
            if (typeof replacer === 'function')
                value = replacer.call(obj, key, value);
            else if (Array.isArray(replacer) && !replacer.includes(key))
                return;
            if (value !== undefined || keepUndefined)
                map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
            for (const [key, value] of obj)
                add(key, value);
        }
        else if (obj && typeof obj === 'object') {
            for (const key of Object.keys(obj))
                add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === 'function') {
            map.items.sort(schema.sortMapEntries);
        }
        return map;
    }
    /**
     * Adds a value to the collection.
     *
     * @param overwrite - If not set `true`, using a key that is already in the
     *   collection will throw. Otherwise, overwrites the previous value.
     */
    add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
            _pair = pair;
        else if (!pair || typeof pair !== 'object' || !('key' in pair)) {
            // In TypeScript, this never happens.
            _pair = new Pair.Pair(pair, pair?.value);
        }
        else
            _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
            if (!overwrite)
                throw new Error(`Key ${_pair.key} already set`);
            // For scalars, keep the old node & its comments and anchors
            if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
                prev.value.value = _pair.value;
            else
                prev.value = _pair.value;
        }
        else if (sortEntries) {
            const i = this.items.findIndex(item => sortEntries(_pair, item) < 0);
            if (i === -1)
                this.items.push(_pair);
            else
                this.items.splice(i, 0, _pair);
        }
        else {
            this.items.push(_pair);
        }
    }
    delete(key) {
        const it = findPair(this.items, key);
        if (!it)
            return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? undefined;
    }
    has(key) {
        return !!findPair(this.items, key);
    }
    set(key, value) {
        this.add(new Pair.Pair(key, value), true);
    }
    /**
     * @param ctx - Conversion context, originally set in Document#toJS()
     * @param {Class} Type - If set, forces the returned collection type
     * @returns Instance of Type, Map, or Object
     */
    toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? new Map() : {};
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const item of this.items)
            addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        for (const item of this.items) {
            if (!identity.isPair(item))
                throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
            ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
            blockItemPrefix: '',
            flowChars: { start: '{', end: '}' },
            itemIndent: ctx.indent || '',
            onChompKeep,
            onComment
        });
    }
}

exports.YAMLMap = YAMLMap;
exports.findPair = findPair;


/***/ }),

/***/ 2223:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var stringifyCollection = __nccwpck_require__(1212);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var toJS = __nccwpck_require__(4043);

class YAMLSeq extends Collection.Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:seq';
    }
    constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
    }
    add(value) {
        this.items.push(value);
    }
    /**
     * Removes a value from the collection.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     *
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return undefined;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     */
    has(key) {
        const idx = asItemIndex(key);
        return typeof idx === 'number' && idx < this.items.length;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     *
     * If `key` does not contain a representation of an integer, this will throw.
     * It may be wrapped in a `Scalar`.
     */
    set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
            prev.value = value;
        else
            this.items[idx] = value;
    }
    toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
            ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
            seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
            blockItemPrefix: '- ',
            flowChars: { start: '[', end: ']' },
            itemIndent: (ctx.indent || '') + '  ',
            onChompKeep,
            onComment
        });
    }
    static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
            let i = 0;
            for (let it of obj) {
                if (typeof replacer === 'function') {
                    const key = obj instanceof Set ? it : String(i++);
                    it = replacer.call(obj, key, it);
                }
                seq.items.push(createNode.createNode(it, undefined, ctx));
            }
        }
        return seq;
    }
}
function asItemIndex(key) {
    let idx = identity.isScalar(key) ? key.value : key;
    if (idx && typeof idx === 'string')
        idx = Number(idx);
    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0
        ? idx
        : null;
}

exports.YAMLSeq = YAMLSeq;


/***/ }),

/***/ 7104:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var log = __nccwpck_require__(7249);
var merge = __nccwpck_require__(452);
var stringify = __nccwpck_require__(2148);
var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);

function addPairToJSMap(ctx, map, { key, value }) {
    if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
    // TODO: Should drop this special case for bare << handling
    else if (merge.isMergeKey(ctx, key))
        merge.addMergeToJSMap(ctx, map, value);
    else {
        const jsKey = toJS.toJS(key, '', ctx);
        if (map instanceof Map) {
            map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        }
        else if (map instanceof Set) {
            map.add(jsKey);
        }
        else {
            const stringKey = stringifyKey(key, jsKey, ctx);
            const jsValue = toJS.toJS(value, stringKey, ctx);
            if (stringKey in map)
                Object.defineProperty(map, stringKey, {
                    value: jsValue,
                    writable: true,
                    enumerable: true,
                    configurable: true
                });
            else
                map[stringKey] = jsValue;
        }
    }
    return map;
}
function stringifyKey(key, jsKey, ctx) {
    if (jsKey === null)
        return '';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (typeof jsKey !== 'object')
        return String(jsKey);
    if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify.createStringifyContext(ctx.doc, {});
        strCtx.anchors = new Set();
        for (const node of ctx.anchors.keys())
            strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
            let jsonStr = JSON.stringify(strKey);
            if (jsonStr.length > 40)
                jsonStr = jsonStr.substring(0, 36) + '..."';
            log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
            ctx.mapKeyWarned = true;
        }
        return strKey;
    }
    return JSON.stringify(jsKey);
}

exports.addPairToJSMap = addPairToJSMap;


/***/ }),

/***/ 1127:
/***/ ((__unused_webpack_module, exports) => {



const ALIAS = Symbol.for('yaml.alias');
const DOC = Symbol.for('yaml.document');
const MAP = Symbol.for('yaml.map');
const PAIR = Symbol.for('yaml.pair');
const SCALAR = Symbol.for('yaml.scalar');
const SEQ = Symbol.for('yaml.seq');
const NODE_TYPE = Symbol.for('yaml.node.type');
const isAlias = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === ALIAS;
const isDocument = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === DOC;
const isMap = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === MAP;
const isPair = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === PAIR;
const isScalar = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SCALAR;
const isSeq = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SEQ;
function isCollection(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case MAP:
            case SEQ:
                return true;
        }
    return false;
}
function isNode(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case ALIAS:
            case MAP:
            case SCALAR:
            case SEQ:
                return true;
        }
    return false;
}
const hasAnchor = (node) => (isScalar(node) || isCollection(node)) && !!node.anchor;

exports.ALIAS = ALIAS;
exports.DOC = DOC;
exports.MAP = MAP;
exports.NODE_TYPE = NODE_TYPE;
exports.PAIR = PAIR;
exports.SCALAR = SCALAR;
exports.SEQ = SEQ;
exports.hasAnchor = hasAnchor;
exports.isAlias = isAlias;
exports.isCollection = isCollection;
exports.isDocument = isDocument;
exports.isMap = isMap;
exports.isNode = isNode;
exports.isPair = isPair;
exports.isScalar = isScalar;
exports.isSeq = isSeq;


/***/ }),

/***/ 4043:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

/**
 * Recursively convert any node or its contents to native JavaScript
 *
 * @param value - The input value
 * @param arg - If `value` defines a `toJSON()` method, use this
 *   as its first argument
 * @param ctx - Conversion context, originally set in Document#toJS(). If
 *   `{ keep: true }` is not set, output should be suitable for JSON
 *   stringification.
 */
function toJS(value, arg, ctx) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return
    if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
    if (value && typeof value.toJSON === 'function') {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-call
        if (!ctx || !identity.hasAnchor(value))
            return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: undefined };
        ctx.anchors.set(value, data);
        ctx.onCreate = res => {
            data.res = res;
            delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
            ctx.onCreate(res);
        return res;
    }
    if (typeof value === 'bigint' && !ctx?.keep)
        return Number(value);
    return value;
}

exports.toJS = toJS;


/***/ }),

/***/ 110:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var resolveBlockScalar = __nccwpck_require__(8913);
var resolveFlowScalar = __nccwpck_require__(6842);
var errors = __nccwpck_require__(1464);
var stringifyString = __nccwpck_require__(3069);

function resolveAsScalar(token, strict = true, onError) {
    if (token) {
        const _onError = (pos, code, message) => {
            const offset = typeof pos === 'number' ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
            if (onError)
                onError(offset, code, message);
            else
                throw new errors.YAMLParseError([offset, offset + 1], code, message);
        };
        switch (token.type) {
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
            case 'block-scalar':
                return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
    }
    return null;
}
/**
 * Create a new scalar token with `value`
 *
 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
 * as this function does not support any schema operations and won't check for such conflicts.
 *
 * @param value The string representation of the value, which will have its content properly indented.
 * @param context.end Comments and whitespace after the end of the value, or after the block scalar header. If undefined, a newline will be added.
 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
 * @param context.indent The indent level of the token.
 * @param context.inFlow Is this scalar within a flow collection? This may affect the resolved type of the token's value.
 * @param context.offset The offset position of the token.
 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
 */
function createScalarToken(value, context) {
    const { implicitKey = false, indent, inFlow = false, offset = -1, type = 'PLAIN' } = context;
    const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? ' '.repeat(indent) : '',
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
    });
    const end = context.end ?? [
        { type: 'newline', offset: -1, indent, source: '\n' }
    ];
    switch (source[0]) {
        case '|':
        case '>': {
            const he = source.indexOf('\n');
            const head = source.substring(0, he);
            const body = source.substring(he + 1) + '\n';
            const props = [
                { type: 'block-scalar-header', offset, indent, source: head }
            ];
            if (!addEndtoBlockProps(props, end))
                props.push({ type: 'newline', offset: -1, indent, source: '\n' });
            return { type: 'block-scalar', offset, indent, props, source: body };
        }
        case '"':
            return { type: 'double-quoted-scalar', offset, indent, source, end };
        case "'":
            return { type: 'single-quoted-scalar', offset, indent, source, end };
        default:
            return { type: 'scalar', offset, indent, source, end };
    }
}
/**
 * Set the value of `token` to the given string `value`, overwriting any previous contents and type that it may have.
 *
 * Best efforts are made to retain any comments previously associated with the `token`,
 * though all contents within a collection's `items` will be overwritten.
 *
 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
 * as this function does not support any schema operations and won't check for such conflicts.
 *
 * @param token Any token. If it does not include an `indent` value, the value will be stringified as if it were an implicit key.
 * @param value The string representation of the value, which will have its content properly indented.
 * @param context.afterKey In most cases, values after a key should have an additional level of indentation.
 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
 * @param context.inFlow Being within a flow collection may affect the resolved type of the token's value.
 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
 */
function setScalarValue(token, value, context = {}) {
    let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
    let indent = 'indent' in token ? token.indent : null;
    if (afterKey && typeof indent === 'number')
        indent += 2;
    if (!type)
        switch (token.type) {
            case 'single-quoted-scalar':
                type = 'QUOTE_SINGLE';
                break;
            case 'double-quoted-scalar':
                type = 'QUOTE_DOUBLE';
                break;
            case 'block-scalar': {
                const header = token.props[0];
                if (header.type !== 'block-scalar-header')
                    throw new Error('Invalid block scalar header');
                type = header.source[0] === '>' ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL';
                break;
            }
            default:
                type = 'PLAIN';
        }
    const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? ' '.repeat(indent) : '',
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
    });
    switch (source[0]) {
        case '|':
        case '>':
            setBlockScalarValue(token, source);
            break;
        case '"':
            setFlowScalarValue(token, source, 'double-quoted-scalar');
            break;
        case "'":
            setFlowScalarValue(token, source, 'single-quoted-scalar');
            break;
        default:
            setFlowScalarValue(token, source, 'scalar');
    }
}
function setBlockScalarValue(token, source) {
    const he = source.indexOf('\n');
    const head = source.substring(0, he);
    const body = source.substring(he + 1) + '\n';
    if (token.type === 'block-scalar') {
        const header = token.props[0];
        if (header.type !== 'block-scalar-header')
            throw new Error('Invalid block scalar header');
        header.source = head;
        token.source = body;
    }
    else {
        const { offset } = token;
        const indent = 'indent' in token ? token.indent : -1;
        const props = [
            { type: 'block-scalar-header', offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, 'end' in token ? token.end : undefined))
            props.push({ type: 'newline', offset: -1, indent, source: '\n' });
        for (const key of Object.keys(token))
            if (key !== 'type' && key !== 'offset')
                delete token[key];
        Object.assign(token, { type: 'block-scalar', indent, props, source: body });
    }
}
/** @returns `true` if last token is a newline */
function addEndtoBlockProps(props, end) {
    if (end)
        for (const st of end)
            switch (st.type) {
                case 'space':
                case 'comment':
                    props.push(st);
                    break;
                case 'newline':
                    props.push(st);
                    return true;
            }
    return false;
}
function setFlowScalarValue(token, source, type) {
    switch (token.type) {
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            token.type = type;
            token.source = source;
            break;
        case 'block-scalar': {
            const end = token.props.slice(1);
            let oa = source.length;
            if (token.props[0].type === 'block-scalar-header')
                oa -= token.props[0].source.length;
            for (const tok of end)
                tok.offset += oa;
            delete token.props;
            Object.assign(token, { type, source, end });
            break;
        }
        case 'block-map':
        case 'block-seq': {
            const offset = token.offset + source.length;
            const nl = { type: 'newline', offset, indent: token.indent, source: '\n' };
            delete token.items;
            Object.assign(token, { type, source, end: [nl] });
            break;
        }
        default: {
            const indent = 'indent' in token ? token.indent : -1;
            const end = 'end' in token && Array.isArray(token.end)
                ? token.end.filter(st => st.type === 'space' ||
                    st.type === 'comment' ||
                    st.type === 'newline')
                : [];
            for (const key of Object.keys(token))
                if (key !== 'type' && key !== 'offset')
                    delete token[key];
            Object.assign(token, { type, indent, source, end });
        }
    }
}

exports.createScalarToken = createScalarToken;
exports.resolveAsScalar = resolveAsScalar;
exports.setScalarValue = setScalarValue;


/***/ }),

/***/ 1733:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Stringify a CST document, token, or collection item
 *
 * Fair warning: This applies no validation whatsoever, and
 * simply concatenates the sources in their logical order.
 */
const stringify = (cst) => 'type' in cst ? stringifyToken(cst) : stringifyItem(cst);
function stringifyToken(token) {
    switch (token.type) {
        case 'block-scalar': {
            let res = '';
            for (const tok of token.props)
                res += stringifyToken(tok);
            return res + token.source;
        }
        case 'block-map':
        case 'block-seq': {
            let res = '';
            for (const item of token.items)
                res += stringifyItem(item);
            return res;
        }
        case 'flow-collection': {
            let res = token.start.source;
            for (const item of token.items)
                res += stringifyItem(item);
            for (const st of token.end)
                res += st.source;
            return res;
        }
        case 'document': {
            let res = stringifyItem(token);
            if (token.end)
                for (const st of token.end)
                    res += st.source;
            return res;
        }
        default: {
            let res = token.source;
            if ('end' in token && token.end)
                for (const st of token.end)
                    res += st.source;
            return res;
        }
    }
}
function stringifyItem({ start, key, sep, value }) {
    let res = '';
    for (const st of start)
        res += st.source;
    if (key)
        res += stringifyToken(key);
    if (sep)
        for (const st of sep)
            res += st.source;
    if (value)
        res += stringifyToken(value);
    return res;
}

exports.stringify = stringify;


/***/ }),

/***/ 7715:
/***/ ((__unused_webpack_module, exports) => {



const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove item');
/**
 * Apply a visitor to a CST document or item.
 *
 * Walks through the tree (depth-first) starting from the root, calling a
 * `visitor` function with two arguments when entering each item:
 *   - `item`: The current item, which included the following members:
 *     - `start: SourceToken[]` – Source tokens before the key or value,
 *       possibly including its anchor or tag.
 *     - `key?: Token | null` – Set for pair values. May then be `null`, if
 *       the key before the `:` separator is empty.
 *     - `sep?: SourceToken[]` – Source tokens between the key and the value,
 *       which should include the `:` map value indicator if `value` is set.
 *     - `value?: Token` – The value of a sequence item, or of a map pair.
 *   - `path`: The steps from the root to the current node, as an array of
 *     `['key' | 'value', number]` tuples.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this token, continue with
 *      next sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current item, then continue with the next one
 *   - `number`: Set the index of the next step. This is useful especially if
 *     the index of the current token has changed.
 *   - `function`: Define the next visitor for this item. After the original
 *     visitor is called on item entry, next visitors are called after handling
 *     a non-empty `key` and when exiting the item.
 */
function visit(cst, visitor) {
    if ('type' in cst && cst.type === 'document')
        cst = { start: cst.start, value: cst.value };
    _visit(Object.freeze([]), cst, visitor);
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current item */
visit.SKIP = SKIP;
/** Remove the current item */
visit.REMOVE = REMOVE;
/** Find the item at `path` from `cst` as the root */
visit.itemAtPath = (cst, path) => {
    let item = cst;
    for (const [field, index] of path) {
        const tok = item?.[field];
        if (tok && 'items' in tok) {
            item = tok.items[index];
        }
        else
            return undefined;
    }
    return item;
};
/**
 * Get the immediate parent collection of the item at `path` from `cst` as the root.
 *
 * Throws an error if the collection is not found, which should never happen if the item itself exists.
 */
visit.parentCollection = (cst, path) => {
    const parent = visit.itemAtPath(cst, path.slice(0, -1));
    const field = path[path.length - 1][0];
    const coll = parent?.[field];
    if (coll && 'items' in coll)
        return coll;
    throw new Error('Parent collection not found');
};
function _visit(path, item, visitor) {
    let ctrl = visitor(item, path);
    if (typeof ctrl === 'symbol')
        return ctrl;
    for (const field of ['key', 'value']) {
        const token = item[field];
        if (token && 'items' in token) {
            for (let i = 0; i < token.items.length; ++i) {
                const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    token.items.splice(i, 1);
                    i -= 1;
                }
            }
            if (typeof ctrl === 'function' && field === 'key')
                ctrl = ctrl(item, path);
        }
    }
    return typeof ctrl === 'function' ? ctrl(item, path) : ctrl;
}

exports.visit = visit;


/***/ }),

/***/ 3461:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var cstScalar = __nccwpck_require__(110);
var cstStringify = __nccwpck_require__(1733);
var cstVisit = __nccwpck_require__(7715);

/** The byte order mark */
const BOM = '\u{FEFF}';
/** Start of doc-mode */
const DOCUMENT = '\x02'; // C0: Start of Text
/** Unexpected end of flow-mode */
const FLOW_END = '\x18'; // C0: Cancel
/** Next token is a scalar value */
const SCALAR = '\x1f'; // C0: Unit Separator
/** @returns `true` if `token` is a flow or block collection */
const isCollection = (token) => !!token && 'items' in token;
/** @returns `true` if `token` is a flow or block scalar; not an alias */
const isScalar = (token) => !!token &&
    (token.type === 'scalar' ||
        token.type === 'single-quoted-scalar' ||
        token.type === 'double-quoted-scalar' ||
        token.type === 'block-scalar');
/* istanbul ignore next */
/** Get a printable representation of a lexer token */
function prettyToken(token) {
    switch (token) {
        case BOM:
            return '<BOM>';
        case DOCUMENT:
            return '<DOC>';
        case FLOW_END:
            return '<FLOW_END>';
        case SCALAR:
            return '<SCALAR>';
        default:
            return JSON.stringify(token);
    }
}
/** Identify the type of a lexer token. May return `null` for unknown tokens. */
function tokenType(source) {
    switch (source) {
        case BOM:
            return 'byte-order-mark';
        case DOCUMENT:
            return 'doc-mode';
        case FLOW_END:
            return 'flow-error-end';
        case SCALAR:
            return 'scalar';
        case '---':
            return 'doc-start';
        case '...':
            return 'doc-end';
        case '':
        case '\n':
        case '\r\n':
            return 'newline';
        case '-':
            return 'seq-item-ind';
        case '?':
            return 'explicit-key-ind';
        case ':':
            return 'map-value-ind';
        case '{':
            return 'flow-map-start';
        case '}':
            return 'flow-map-end';
        case '[':
            return 'flow-seq-start';
        case ']':
            return 'flow-seq-end';
        case ',':
            return 'comma';
    }
    switch (source[0]) {
        case ' ':
        case '\t':
            return 'space';
        case '#':
            return 'comment';
        case '%':
            return 'directive-line';
        case '*':
            return 'alias';
        case '&':
            return 'anchor';
        case '!':
            return 'tag';
        case "'":
            return 'single-quoted-scalar';
        case '"':
            return 'double-quoted-scalar';
        case '|':
        case '>':
            return 'block-scalar-header';
    }
    return null;
}

exports.createScalarToken = cstScalar.createScalarToken;
exports.resolveAsScalar = cstScalar.resolveAsScalar;
exports.setScalarValue = cstScalar.setScalarValue;
exports.stringify = cstStringify.stringify;
exports.visit = cstVisit.visit;
exports.BOM = BOM;
exports.DOCUMENT = DOCUMENT;
exports.FLOW_END = FLOW_END;
exports.SCALAR = SCALAR;
exports.isCollection = isCollection;
exports.isScalar = isScalar;
exports.prettyToken = prettyToken;
exports.tokenType = tokenType;


/***/ }),

/***/ 361:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var cst = __nccwpck_require__(3461);

/*
START -> stream

stream
  directive -> line-end -> stream
  indent + line-end -> stream
  [else] -> line-start

line-end
  comment -> line-end
  newline -> .
  input-end -> END

line-start
  doc-start -> doc
  doc-end -> stream
  [else] -> indent -> block-start

block-start
  seq-item-start -> block-start
  explicit-key-start -> block-start
  map-value-start -> block-start
  [else] -> doc

doc
  line-end -> line-start
  spaces -> doc
  anchor -> doc
  tag -> doc
  flow-start -> flow -> doc
  flow-end -> error -> doc
  seq-item-start -> error -> doc
  explicit-key-start -> error -> doc
  map-value-start -> doc
  alias -> doc
  quote-start -> quoted-scalar -> doc
  block-scalar-header -> line-end -> block-scalar(min) -> line-start
  [else] -> plain-scalar(false, min) -> doc

flow
  line-end -> flow
  spaces -> flow
  anchor -> flow
  tag -> flow
  flow-start -> flow -> flow
  flow-end -> .
  seq-item-start -> error -> flow
  explicit-key-start -> flow
  map-value-start -> flow
  alias -> flow
  quote-start -> quoted-scalar -> flow
  comma -> flow
  [else] -> plain-scalar(true, 0) -> flow

quoted-scalar
  quote-end -> .
  [else] -> quoted-scalar

block-scalar(min)
  newline + peek(indent < min) -> .
  [else] -> block-scalar(min)

plain-scalar(is-flow, min)
  scalar-end(is-flow) -> .
  peek(newline + (indent < min)) -> .
  [else] -> plain-scalar(min)
*/
function isEmpty(ch) {
    switch (ch) {
        case undefined:
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            return true;
        default:
            return false;
    }
}
const hexDigits = new Set('0123456789ABCDEFabcdef');
const tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
const flowIndicatorChars = new Set(',[]{}');
const invalidAnchorChars = new Set(' ,[]{}\n\r\t');
const isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
/**
 * Splits an input string into lexical tokens, i.e. smaller strings that are
 * easily identifiable by `tokens.tokenType()`.
 *
 * Lexing starts always in a "stream" context. Incomplete input may be buffered
 * until a complete token can be emitted.
 *
 * In addition to slices of the original input, the following control characters
 * may also be emitted:
 *
 * - `\x02` (Start of Text): A document starts with the next token
 * - `\x18` (Cancel): Unexpected end of flow-mode (indicates an error)
 * - `\x1f` (Unit Separator): Next token is a scalar value
 * - `\u{FEFF}` (Byte order mark): Emitted separately outside documents
 */
class Lexer {
    constructor() {
        /**
         * Flag indicating whether the end of the current buffer marks the end of
         * all input
         */
        this.atEnd = false;
        /**
         * Explicit indent set in block scalar header, as an offset from the current
         * minimum indent, so e.g. set to 1 from a header `|2+`. Set to -1 if not
         * explicitly set.
         */
        this.blockScalarIndent = -1;
        /**
         * Block scalars that include a + (keep) chomping indicator in their header
         * include trailing empty lines, which are otherwise excluded from the
         * scalar's contents.
         */
        this.blockScalarKeep = false;
        /** Current input */
        this.buffer = '';
        /**
         * Flag noting whether the map value indicator : can immediately follow this
         * node within a flow context.
         */
        this.flowKey = false;
        /** Count of surrounding flow collection levels. */
        this.flowLevel = 0;
        /**
         * Minimum level of indentation required for next lines to be parsed as a
         * part of the current scalar value.
         */
        this.indentNext = 0;
        /** Indentation level of the current line. */
        this.indentValue = 0;
        /** Position of the next \n character. */
        this.lineEndPos = null;
        /** Stores the state of the lexer if reaching the end of incpomplete input */
        this.next = null;
        /** A pointer to `buffer`; the current position of the lexer. */
        this.pos = 0;
    }
    /**
     * Generate YAML tokens from the `source` string. If `incomplete`,
     * a part of the last line may be left as a buffer for the next call.
     *
     * @returns A generator of lexical tokens
     */
    *lex(source, incomplete = false) {
        if (source) {
            if (typeof source !== 'string')
                throw TypeError('source is not a string');
            this.buffer = this.buffer ? this.buffer + source : source;
            this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? 'stream';
        while (next && (incomplete || this.hasChars(1)))
            next = yield* this.parseNext(next);
    }
    atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === ' ' || ch === '\t')
            ch = this.buffer[++i];
        if (!ch || ch === '#' || ch === '\n')
            return true;
        if (ch === '\r')
            return this.buffer[i + 1] === '\n';
        return false;
    }
    charAt(n) {
        return this.buffer[this.pos + n];
    }
    continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
            let indent = 0;
            while (ch === ' ')
                ch = this.buffer[++indent + offset];
            if (ch === '\r') {
                const next = this.buffer[indent + offset + 1];
                if (next === '\n' || (!next && !this.atEnd))
                    return offset + indent + 1;
            }
            return ch === '\n' || indent >= this.indentNext || (!ch && !this.atEnd)
                ? offset + indent
                : -1;
        }
        if (ch === '-' || ch === '.') {
            const dt = this.buffer.substr(offset, 3);
            if ((dt === '---' || dt === '...') && isEmpty(this.buffer[offset + 3]))
                return -1;
        }
        return offset;
    }
    getLine() {
        let end = this.lineEndPos;
        if (typeof end !== 'number' || (end !== -1 && end < this.pos)) {
            end = this.buffer.indexOf('\n', this.pos);
            this.lineEndPos = end;
        }
        if (end === -1)
            return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === '\r')
            end -= 1;
        return this.buffer.substring(this.pos, end);
    }
    hasChars(n) {
        return this.pos + n <= this.buffer.length;
    }
    setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
    }
    peek(n) {
        return this.buffer.substr(this.pos, n);
    }
    *parseNext(next) {
        switch (next) {
            case 'stream':
                return yield* this.parseStream();
            case 'line-start':
                return yield* this.parseLineStart();
            case 'block-start':
                return yield* this.parseBlockStart();
            case 'doc':
                return yield* this.parseDocument();
            case 'flow':
                return yield* this.parseFlowCollection();
            case 'quoted-scalar':
                return yield* this.parseQuotedScalar();
            case 'block-scalar':
                return yield* this.parseBlockScalar();
            case 'plain-scalar':
                return yield* this.parsePlainScalar();
        }
    }
    *parseStream() {
        let line = this.getLine();
        if (line === null)
            return this.setNext('stream');
        if (line[0] === cst.BOM) {
            yield* this.pushCount(1);
            line = line.substring(1);
        }
        if (line[0] === '%') {
            let dirEnd = line.length;
            let cs = line.indexOf('#');
            while (cs !== -1) {
                const ch = line[cs - 1];
                if (ch === ' ' || ch === '\t') {
                    dirEnd = cs - 1;
                    break;
                }
                else {
                    cs = line.indexOf('#', cs + 1);
                }
            }
            while (true) {
                const ch = line[dirEnd - 1];
                if (ch === ' ' || ch === '\t')
                    dirEnd -= 1;
                else
                    break;
            }
            const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
            yield* this.pushCount(line.length - n); // possible comment
            this.pushNewline();
            return 'stream';
        }
        if (this.atLineEnd()) {
            const sp = yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - sp);
            yield* this.pushNewline();
            return 'stream';
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
    }
    *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
            return this.setNext('line-start');
        if (ch === '-' || ch === '.') {
            if (!this.atEnd && !this.hasChars(4))
                return this.setNext('line-start');
            const s = this.peek(3);
            if ((s === '---' || s === '...') && isEmpty(this.charAt(3))) {
                yield* this.pushCount(3);
                this.indentValue = 0;
                this.indentNext = 0;
                return s === '---' ? 'doc' : 'stream';
            }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
            this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
    }
    *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
            return this.setNext('block-start');
        if ((ch0 === '-' || ch0 === '?' || ch0 === ':') && isEmpty(ch1)) {
            const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
            this.indentNext = this.indentValue + 1;
            this.indentValue += n;
            return 'block-start';
        }
        return 'doc';
    }
    *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
            return this.setNext('doc');
        let n = yield* this.pushIndicators();
        switch (line[n]) {
            case '#':
                yield* this.pushCount(line.length - n);
            // fallthrough
            case undefined:
                yield* this.pushNewline();
                return yield* this.parseLineStart();
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel = 1;
                return 'flow';
            case '}':
            case ']':
                // this is an error
                yield* this.pushCount(1);
                return 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'doc';
            case '"':
            case "'":
                return yield* this.parseQuotedScalar();
            case '|':
            case '>':
                n += yield* this.parseBlockScalarHeader();
                n += yield* this.pushSpaces(true);
                yield* this.pushCount(line.length - n);
                yield* this.pushNewline();
                return yield* this.parseBlockScalar();
            default:
                return yield* this.parsePlainScalar();
        }
    }
    *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
            nl = yield* this.pushNewline();
            if (nl > 0) {
                sp = yield* this.pushSpaces(false);
                this.indentValue = indent = sp;
            }
            else {
                sp = 0;
            }
            sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
            return this.setNext('flow');
        if ((indent !== -1 && indent < this.indentNext && line[0] !== '#') ||
            (indent === 0 &&
                (line.startsWith('---') || line.startsWith('...')) &&
                isEmpty(line[3]))) {
            // Allowing for the terminal ] or } at the same (rather than greater)
            // indent level as the initial [ or { is technically invalid, but
            // failing here would be surprising to users.
            const atFlowEndMarker = indent === this.indentNext - 1 &&
                this.flowLevel === 1 &&
                (line[0] === ']' || line[0] === '}');
            if (!atFlowEndMarker) {
                // this is an error
                this.flowLevel = 0;
                yield cst.FLOW_END;
                return yield* this.parseLineStart();
            }
        }
        let n = 0;
        while (line[n] === ',') {
            n += yield* this.pushCount(1);
            n += yield* this.pushSpaces(true);
            this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
            case undefined:
                return 'flow';
            case '#':
                yield* this.pushCount(line.length - n);
                return 'flow';
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel += 1;
                return 'flow';
            case '}':
            case ']':
                yield* this.pushCount(1);
                this.flowKey = true;
                this.flowLevel -= 1;
                return this.flowLevel ? 'flow' : 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'flow';
            case '"':
            case "'":
                this.flowKey = true;
                return yield* this.parseQuotedScalar();
            case ':': {
                const next = this.charAt(1);
                if (this.flowKey || isEmpty(next) || next === ',') {
                    this.flowKey = false;
                    yield* this.pushCount(1);
                    yield* this.pushSpaces(true);
                    return 'flow';
                }
            }
            // fallthrough
            default:
                this.flowKey = false;
                return yield* this.parsePlainScalar();
        }
    }
    *parseQuotedScalar() {
        const quote = this.charAt(0);
        let end = this.buffer.indexOf(quote, this.pos + 1);
        if (quote === "'") {
            while (end !== -1 && this.buffer[end + 1] === "'")
                end = this.buffer.indexOf("'", end + 2);
        }
        else {
            // double-quote
            while (end !== -1) {
                let n = 0;
                while (this.buffer[end - 1 - n] === '\\')
                    n += 1;
                if (n % 2 === 0)
                    break;
                end = this.buffer.indexOf('"', end + 1);
            }
        }
        // Only looking for newlines within the quotes
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf('\n', this.pos);
        if (nl !== -1) {
            while (nl !== -1) {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = qb.indexOf('\n', cs);
            }
            if (nl !== -1) {
                // this is an error caused by an unexpected unindent
                end = nl - (qb[nl - 1] === '\r' ? 2 : 1);
            }
        }
        if (end === -1) {
            if (!this.atEnd)
                return this.setNext('quoted-scalar');
            end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? 'flow' : 'doc';
    }
    *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
            const ch = this.buffer[++i];
            if (ch === '+')
                this.blockScalarKeep = true;
            else if (ch > '0' && ch <= '9')
                this.blockScalarIndent = Number(ch) - 1;
            else if (ch !== '-')
                break;
        }
        return yield* this.pushUntil(ch => isEmpty(ch) || ch === '#');
    }
    *parseBlockScalar() {
        let nl = this.pos - 1; // may be -1 if this.pos === 0
        let indent = 0;
        let ch;
        loop: for (let i = this.pos; (ch = this.buffer[i]); ++i) {
            switch (ch) {
                case ' ':
                    indent += 1;
                    break;
                case '\n':
                    nl = i;
                    indent = 0;
                    break;
                case '\r': {
                    const next = this.buffer[i + 1];
                    if (!next && !this.atEnd)
                        return this.setNext('block-scalar');
                    if (next === '\n')
                        break;
                } // fallthrough
                default:
                    break loop;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('block-scalar');
        if (indent >= this.indentNext) {
            if (this.blockScalarIndent === -1)
                this.indentNext = indent;
            else {
                this.indentNext =
                    this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
            }
            do {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = this.buffer.indexOf('\n', cs);
            } while (nl !== -1);
            if (nl === -1) {
                if (!this.atEnd)
                    return this.setNext('block-scalar');
                nl = this.buffer.length;
            }
        }
        // Trailing insufficiently indented tabs are invalid.
        // To catch that during parsing, we include them in the block scalar value.
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === ' ')
            ch = this.buffer[++i];
        if (ch === '\t') {
            while (ch === '\t' || ch === ' ' || ch === '\r' || ch === '\n')
                ch = this.buffer[++i];
            nl = i - 1;
        }
        else if (!this.blockScalarKeep) {
            do {
                let i = nl - 1;
                let ch = this.buffer[i];
                if (ch === '\r')
                    ch = this.buffer[--i];
                const lastChar = i; // Drop the line if last char not more indented
                while (ch === ' ')
                    ch = this.buffer[--i];
                if (ch === '\n' && i >= this.pos && i + 1 + indent > lastChar)
                    nl = i;
                else
                    break;
            } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
    }
    *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while ((ch = this.buffer[++i])) {
            if (ch === ':') {
                const next = this.buffer[i + 1];
                if (isEmpty(next) || (inFlow && flowIndicatorChars.has(next)))
                    break;
                end = i;
            }
            else if (isEmpty(ch)) {
                let next = this.buffer[i + 1];
                if (ch === '\r') {
                    if (next === '\n') {
                        i += 1;
                        ch = '\n';
                        next = this.buffer[i + 1];
                    }
                    else
                        end = i;
                }
                if (next === '#' || (inFlow && flowIndicatorChars.has(next)))
                    break;
                if (ch === '\n') {
                    const cs = this.continueScalar(i + 1);
                    if (cs === -1)
                        break;
                    i = Math.max(i, cs - 2); // to advance, but still account for ' #'
                }
            }
            else {
                if (inFlow && flowIndicatorChars.has(ch))
                    break;
                end = i;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('plain-scalar');
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? 'flow' : 'doc';
    }
    *pushCount(n) {
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos += n;
            return n;
        }
        return 0;
    }
    *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
            yield s;
            this.pos += s.length;
            return s.length;
        }
        else if (allowEmpty)
            yield '';
        return 0;
    }
    *pushIndicators() {
        let n = 0;
        loop: while (true) {
            switch (this.charAt(0)) {
                case '!':
                    n += yield* this.pushTag();
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '&':
                    n += yield* this.pushUntil(isNotAnchorChar);
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '-': // this is an error
                case '?': // this is an error outside flow collections
                case ':': {
                    const inFlow = this.flowLevel > 0;
                    const ch1 = this.charAt(1);
                    if (isEmpty(ch1) || (inFlow && flowIndicatorChars.has(ch1))) {
                        if (!inFlow)
                            this.indentNext = this.indentValue + 1;
                        else if (this.flowKey)
                            this.flowKey = false;
                        n += yield* this.pushCount(1);
                        n += yield* this.pushSpaces(true);
                        continue loop;
                    }
                }
            }
            break loop;
        }
        return n;
    }
    *pushTag() {
        if (this.charAt(1) === '<') {
            let i = this.pos + 2;
            let ch = this.buffer[i];
            while (!isEmpty(ch) && ch !== '>')
                ch = this.buffer[++i];
            return yield* this.pushToIndex(ch === '>' ? i + 1 : i, false);
        }
        else {
            let i = this.pos + 1;
            let ch = this.buffer[i];
            while (ch) {
                if (tagChars.has(ch))
                    ch = this.buffer[++i];
                else if (ch === '%' &&
                    hexDigits.has(this.buffer[i + 1]) &&
                    hexDigits.has(this.buffer[i + 2])) {
                    ch = this.buffer[(i += 3)];
                }
                else
                    break;
            }
            return yield* this.pushToIndex(i, false);
        }
    }
    *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === '\n')
            return yield* this.pushCount(1);
        else if (ch === '\r' && this.charAt(1) === '\n')
            return yield* this.pushCount(2);
        else
            return 0;
    }
    *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
            ch = this.buffer[++i];
        } while (ch === ' ' || (allowTabs && ch === '\t'));
        const n = i - this.pos;
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos = i;
        }
        return n;
    }
    *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
            ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
    }
}

exports.Lexer = Lexer;


/***/ }),

/***/ 6628:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Tracks newlines during parsing in order to provide an efficient API for
 * determining the one-indexed `{ line, col }` position for any offset
 * within the input.
 */
class LineCounter {
    constructor() {
        this.lineStarts = [];
        /**
         * Should be called in ascending order. Otherwise, call
         * `lineCounter.lineStarts.sort()` before calling `linePos()`.
         */
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        /**
         * Performs a binary search and returns the 1-indexed { line, col }
         * position of `offset`. If `line === 0`, `addNewLine` has never been
         * called or `offset` is before the first known newline.
         */
        this.linePos = (offset) => {
            let low = 0;
            let high = this.lineStarts.length;
            while (low < high) {
                const mid = (low + high) >> 1; // Math.floor((low + high) / 2)
                if (this.lineStarts[mid] < offset)
                    low = mid + 1;
                else
                    high = mid;
            }
            if (this.lineStarts[low] === offset)
                return { line: low + 1, col: 1 };
            if (low === 0)
                return { line: 0, col: offset };
            const start = this.lineStarts[low - 1];
            return { line: low, col: offset - start + 1 };
        };
    }
}

exports.LineCounter = LineCounter;


/***/ }),

/***/ 3456:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);
var cst = __nccwpck_require__(3461);
var lexer = __nccwpck_require__(361);

function includesToken(list, type) {
    for (let i = 0; i < list.length; ++i)
        if (list[i].type === type)
            return true;
    return false;
}
function findNonEmptyIndex(list) {
    for (let i = 0; i < list.length; ++i) {
        switch (list[i].type) {
            case 'space':
            case 'comment':
            case 'newline':
                break;
            default:
                return i;
        }
    }
    return -1;
}
function isFlowToken(token) {
    switch (token?.type) {
        case 'alias':
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'flow-collection':
            return true;
        default:
            return false;
    }
}
function getPrevProps(parent) {
    switch (parent.type) {
        case 'document':
            return parent.start;
        case 'block-map': {
            const it = parent.items[parent.items.length - 1];
            return it.sep ?? it.start;
        }
        case 'block-seq':
            return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
            return [];
    }
}
/** Note: May modify input array */
function getFirstKeyStartProps(prev) {
    if (prev.length === 0)
        return [];
    let i = prev.length;
    loop: while (--i >= 0) {
        switch (prev[i].type) {
            case 'doc-start':
            case 'explicit-key-ind':
            case 'map-value-ind':
            case 'seq-item-ind':
            case 'newline':
                break loop;
        }
    }
    while (prev[++i]?.type === 'space') {
        /* loop */
    }
    return prev.splice(i, prev.length);
}
function arrayPushArray(target, source) {
    // May exhaust call stack with large `source` array
    if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
    else
        for (let i = 0; i < source.length; ++i)
            target.push(source[i]);
}
function fixFlowSeqItems(fc) {
    if (fc.start.type === 'flow-seq-start') {
        for (const it of fc.items) {
            if (it.sep &&
                !it.value &&
                !includesToken(it.start, 'explicit-key-ind') &&
                !includesToken(it.sep, 'map-value-ind')) {
                if (it.key)
                    it.value = it.key;
                delete it.key;
                if (isFlowToken(it.value)) {
                    if (it.value.end)
                        arrayPushArray(it.value.end, it.sep);
                    else
                        it.value.end = it.sep;
                }
                else
                    arrayPushArray(it.start, it.sep);
                delete it.sep;
            }
        }
    }
}
/**
 * A YAML concrete syntax tree (CST) parser
 *
 * ```ts
 * const src: string = ...
 * for (const token of new Parser().parse(src)) {
 *   // token: Token
 * }
 * ```
 *
 * To use the parser with a user-provided lexer:
 *
 * ```ts
 * function* parse(source: string, lexer: Lexer) {
 *   const parser = new Parser()
 *   for (const lexeme of lexer.lex(source))
 *     yield* parser.next(lexeme)
 *   yield* parser.end()
 * }
 *
 * const src: string = ...
 * const lexer = new Lexer()
 * for (const token of parse(src, lexer)) {
 *   // token: Token
 * }
 * ```
 */
class Parser {
    /**
     * @param onNewLine - If defined, called separately with the start position of
     *   each new line (in `parse()`, including the start of input).
     */
    constructor(onNewLine) {
        /** If true, space and sequence indicators count as indentation */
        this.atNewLine = true;
        /** If true, next token is a scalar value */
        this.atScalar = false;
        /** Current indentation level */
        this.indent = 0;
        /** Current offset since the start of parsing */
        this.offset = 0;
        /** On the same line with a block map key */
        this.onKeyLine = false;
        /** Top indicates the node that's currently being built */
        this.stack = [];
        /** The source of the current token, set in parse() */
        this.source = '';
        /** The type of the current token, set in parse() */
        this.type = '';
        // Must be defined after `next()`
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
    }
    /**
     * Parse `source` as a YAML stream.
     * If `incomplete`, a part of the last line may be left as a buffer for the next call.
     *
     * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
     *
     * @returns A generator of tokens representing each directive, document, and other structure.
     */
    *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
            this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
            yield* this.next(lexeme);
        if (!incomplete)
            yield* this.end();
    }
    /**
     * Advance the parser by the `source` of one lexical token.
     */
    *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
            console.log('|', cst.prettyToken(source));
        if (this.atScalar) {
            this.atScalar = false;
            yield* this.step();
            this.offset += source.length;
            return;
        }
        const type = cst.tokenType(source);
        if (!type) {
            const message = `Not a YAML token: ${source}`;
            yield* this.pop({ type: 'error', offset: this.offset, message, source });
            this.offset += source.length;
        }
        else if (type === 'scalar') {
            this.atNewLine = false;
            this.atScalar = true;
            this.type = 'scalar';
        }
        else {
            this.type = type;
            yield* this.step();
            switch (type) {
                case 'newline':
                    this.atNewLine = true;
                    this.indent = 0;
                    if (this.onNewLine)
                        this.onNewLine(this.offset + source.length);
                    break;
                case 'space':
                    if (this.atNewLine && source[0] === ' ')
                        this.indent += source.length;
                    break;
                case 'explicit-key-ind':
                case 'map-value-ind':
                case 'seq-item-ind':
                    if (this.atNewLine)
                        this.indent += source.length;
                    break;
                case 'doc-mode':
                case 'flow-error-end':
                    return;
                default:
                    this.atNewLine = false;
            }
            this.offset += source.length;
        }
    }
    /** Call at end of input to push out any remaining constructions */
    *end() {
        while (this.stack.length > 0)
            yield* this.pop();
    }
    get sourceToken() {
        const st = {
            type: this.type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
        return st;
    }
    *step() {
        const top = this.peek(1);
        if (this.type === 'doc-end' && top?.type !== 'doc-end') {
            while (this.stack.length > 0)
                yield* this.pop();
            this.stack.push({
                type: 'doc-end',
                offset: this.offset,
                source: this.source
            });
            return;
        }
        if (!top)
            return yield* this.stream();
        switch (top.type) {
            case 'document':
                return yield* this.document(top);
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return yield* this.scalar(top);
            case 'block-scalar':
                return yield* this.blockScalar(top);
            case 'block-map':
                return yield* this.blockMap(top);
            case 'block-seq':
                return yield* this.blockSequence(top);
            case 'flow-collection':
                return yield* this.flowCollection(top);
            case 'doc-end':
                return yield* this.documentEnd(top);
        }
        /* istanbul ignore next should not happen */
        yield* this.pop();
    }
    peek(n) {
        return this.stack[this.stack.length - n];
    }
    *pop(error) {
        const token = error ?? this.stack.pop();
        /* istanbul ignore if should not happen */
        if (!token) {
            const message = 'Tried to pop an empty stack';
            yield { type: 'error', offset: this.offset, source: '', message };
        }
        else if (this.stack.length === 0) {
            yield token;
        }
        else {
            const top = this.peek(1);
            if (token.type === 'block-scalar') {
                // Block scalars use their parent rather than header indent
                token.indent = 'indent' in top ? top.indent : 0;
            }
            else if (token.type === 'flow-collection' && top.type === 'document') {
                // Ignore all indent for top-level flow collections
                token.indent = 0;
            }
            if (token.type === 'flow-collection')
                fixFlowSeqItems(token);
            switch (top.type) {
                case 'document':
                    top.value = token;
                    break;
                case 'block-scalar':
                    top.props.push(token); // error
                    break;
                case 'block-map': {
                    const it = top.items[top.items.length - 1];
                    if (it.value) {
                        top.items.push({ start: [], key: token, sep: [] });
                        this.onKeyLine = true;
                        return;
                    }
                    else if (it.sep) {
                        it.value = token;
                    }
                    else {
                        Object.assign(it, { key: token, sep: [] });
                        this.onKeyLine = !it.explicitKey;
                        return;
                    }
                    break;
                }
                case 'block-seq': {
                    const it = top.items[top.items.length - 1];
                    if (it.value)
                        top.items.push({ start: [], value: token });
                    else
                        it.value = token;
                    break;
                }
                case 'flow-collection': {
                    const it = top.items[top.items.length - 1];
                    if (!it || it.value)
                        top.items.push({ start: [], key: token, sep: [] });
                    else if (it.sep)
                        it.value = token;
                    else
                        Object.assign(it, { key: token, sep: [] });
                    return;
                }
                /* istanbul ignore next should not happen */
                default:
                    yield* this.pop();
                    yield* this.pop(token);
            }
            if ((top.type === 'document' ||
                top.type === 'block-map' ||
                top.type === 'block-seq') &&
                (token.type === 'block-map' || token.type === 'block-seq')) {
                const last = token.items[token.items.length - 1];
                if (last &&
                    !last.sep &&
                    !last.value &&
                    last.start.length > 0 &&
                    findNonEmptyIndex(last.start) === -1 &&
                    (token.indent === 0 ||
                        last.start.every(st => st.type !== 'comment' || st.indent < token.indent))) {
                    if (top.type === 'document')
                        top.end = last.start;
                    else
                        top.items.push({ start: last.start });
                    token.items.splice(-1, 1);
                }
            }
        }
    }
    *stream() {
        switch (this.type) {
            case 'directive-line':
                yield { type: 'directive', offset: this.offset, source: this.source };
                return;
            case 'byte-order-mark':
            case 'space':
            case 'comment':
            case 'newline':
                yield this.sourceToken;
                return;
            case 'doc-mode':
            case 'doc-start': {
                const doc = {
                    type: 'document',
                    offset: this.offset,
                    start: []
                };
                if (this.type === 'doc-start')
                    doc.start.push(this.sourceToken);
                this.stack.push(doc);
                return;
            }
        }
        yield {
            type: 'error',
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML stream`,
            source: this.source
        };
    }
    *document(doc) {
        if (doc.value)
            return yield* this.lineEnd(doc);
        switch (this.type) {
            case 'doc-start': {
                if (findNonEmptyIndex(doc.start) !== -1) {
                    yield* this.pop();
                    yield* this.step();
                }
                else
                    doc.start.push(this.sourceToken);
                return;
            }
            case 'anchor':
            case 'tag':
            case 'space':
            case 'comment':
            case 'newline':
                doc.start.push(this.sourceToken);
                return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
            this.stack.push(bv);
        else {
            yield {
                type: 'error',
                offset: this.offset,
                message: `Unexpected ${this.type} token in YAML document`,
                source: this.source
            };
        }
    }
    *scalar(scalar) {
        if (this.type === 'map-value-ind') {
            const prev = getPrevProps(this.peek(2));
            const start = getFirstKeyStartProps(prev);
            let sep;
            if (scalar.end) {
                sep = scalar.end;
                sep.push(this.sourceToken);
                delete scalar.end;
            }
            else
                sep = [this.sourceToken];
            const map = {
                type: 'block-map',
                offset: scalar.offset,
                indent: scalar.indent,
                items: [{ start, key: scalar, sep }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
        }
        else
            yield* this.lineEnd(scalar);
    }
    *blockScalar(scalar) {
        switch (this.type) {
            case 'space':
            case 'comment':
            case 'newline':
                scalar.props.push(this.sourceToken);
                return;
            case 'scalar':
                scalar.source = this.source;
                // block-scalar source includes trailing newline
                this.atNewLine = true;
                this.indent = 0;
                if (this.onNewLine) {
                    let nl = this.source.indexOf('\n') + 1;
                    while (nl !== 0) {
                        this.onNewLine(this.offset + nl);
                        nl = this.source.indexOf('\n', nl) + 1;
                    }
                }
                yield* this.pop();
                break;
            /* istanbul ignore next should not happen */
            default:
                yield* this.pop();
                yield* this.step();
        }
    }
    *blockMap(map) {
        const it = map.items[map.items.length - 1];
        // it.sep is true-ish if pair already has key or : separator
        switch (this.type) {
            case 'newline':
                this.onKeyLine = false;
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    it.start.push(this.sourceToken);
                }
                return;
            case 'space':
            case 'comment':
                if (it.value) {
                    map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    if (this.atIndentedComment(it.start, map.indent)) {
                        const prev = map.items[map.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            map.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
        }
        if (this.indent >= map.indent) {
            const atMapIndent = !this.onKeyLine && this.indent === map.indent;
            const atNextItem = atMapIndent &&
                (it.sep || it.explicitKey) &&
                this.type !== 'seq-item-ind';
            // For empty nodes, assign newline-separated not indented empty tokens to following node
            let start = [];
            if (atNextItem && it.sep && !it.value) {
                const nl = [];
                for (let i = 0; i < it.sep.length; ++i) {
                    const st = it.sep[i];
                    switch (st.type) {
                        case 'newline':
                            nl.push(i);
                            break;
                        case 'space':
                            break;
                        case 'comment':
                            if (st.indent > map.indent)
                                nl.length = 0;
                            break;
                        default:
                            nl.length = 0;
                    }
                }
                if (nl.length >= 2)
                    start = it.sep.splice(nl[1]);
            }
            switch (this.type) {
                case 'anchor':
                case 'tag':
                    if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        it.sep.push(this.sourceToken);
                    }
                    else {
                        it.start.push(this.sourceToken);
                    }
                    return;
                case 'explicit-key-ind':
                    if (!it.sep && !it.explicitKey) {
                        it.start.push(this.sourceToken);
                        it.explicitKey = true;
                    }
                    else if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start, explicitKey: true });
                    }
                    else {
                        this.stack.push({
                            type: 'block-map',
                            offset: this.offset,
                            indent: this.indent,
                            items: [{ start: [this.sourceToken], explicitKey: true }]
                        });
                    }
                    this.onKeyLine = true;
                    return;
                case 'map-value-ind':
                    if (it.explicitKey) {
                        if (!it.sep) {
                            if (includesToken(it.start, 'newline')) {
                                Object.assign(it, { key: null, sep: [this.sourceToken] });
                            }
                            else {
                                const start = getFirstKeyStartProps(it.start);
                                this.stack.push({
                                    type: 'block-map',
                                    offset: this.offset,
                                    indent: this.indent,
                                    items: [{ start, key: null, sep: [this.sourceToken] }]
                                });
                            }
                        }
                        else if (it.value) {
                            map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else if (isFlowToken(it.key) &&
                            !includesToken(it.sep, 'newline')) {
                            const start = getFirstKeyStartProps(it.start);
                            const key = it.key;
                            const sep = it.sep;
                            sep.push(this.sourceToken);
                            // @ts-expect-error type guard is wrong here
                            delete it.key;
                            // @ts-expect-error type guard is wrong here
                            delete it.sep;
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key, sep }]
                            });
                        }
                        else if (start.length > 0) {
                            // Not actually at next item
                            it.sep = it.sep.concat(start, this.sourceToken);
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    else {
                        if (!it.sep) {
                            Object.assign(it, { key: null, sep: [this.sourceToken] });
                        }
                        else if (it.value || atNextItem) {
                            map.items.push({ start, key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start: [], key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    this.onKeyLine = true;
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (atNextItem || it.value) {
                        map.items.push({ start, key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        this.stack.push(fs);
                    }
                    else {
                        Object.assign(it, { key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    return;
                }
                default: {
                    const bv = this.startBlockValue(map);
                    if (bv) {
                        if (bv.type === 'block-seq') {
                            if (!it.explicitKey &&
                                it.sep &&
                                !includesToken(it.sep, 'newline')) {
                                yield* this.pop({
                                    type: 'error',
                                    offset: this.offset,
                                    message: 'Unexpected block-seq-ind on same line with key',
                                    source: this.source
                                });
                                return;
                            }
                        }
                        else if (atMapIndent) {
                            map.items.push({ start });
                        }
                        this.stack.push(bv);
                        return;
                    }
                }
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
            case 'newline':
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        seq.items.push({ start: [this.sourceToken] });
                }
                else
                    it.start.push(this.sourceToken);
                return;
            case 'space':
            case 'comment':
                if (it.value)
                    seq.items.push({ start: [this.sourceToken] });
                else {
                    if (this.atIndentedComment(it.start, seq.indent)) {
                        const prev = seq.items[seq.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            seq.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
            case 'anchor':
            case 'tag':
                if (it.value || this.indent <= seq.indent)
                    break;
                it.start.push(this.sourceToken);
                return;
            case 'seq-item-ind':
                if (this.indent !== seq.indent)
                    break;
                if (it.value || includesToken(it.start, 'seq-item-ind'))
                    seq.items.push({ start: [this.sourceToken] });
                else
                    it.start.push(this.sourceToken);
                return;
        }
        if (this.indent > seq.indent) {
            const bv = this.startBlockValue(seq);
            if (bv) {
                this.stack.push(bv);
                return;
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === 'flow-error-end') {
            let top;
            do {
                yield* this.pop();
                top = this.peek(1);
            } while (top?.type === 'flow-collection');
        }
        else if (fc.end.length === 0) {
            switch (this.type) {
                case 'comma':
                case 'explicit-key-ind':
                    if (!it || it.sep)
                        fc.items.push({ start: [this.sourceToken] });
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'map-value-ind':
                    if (!it || it.value)
                        fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        Object.assign(it, { key: null, sep: [this.sourceToken] });
                    return;
                case 'space':
                case 'comment':
                case 'newline':
                case 'anchor':
                case 'tag':
                    if (!it || it.value)
                        fc.items.push({ start: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (!it || it.value)
                        fc.items.push({ start: [], key: fs, sep: [] });
                    else if (it.sep)
                        this.stack.push(fs);
                    else
                        Object.assign(it, { key: fs, sep: [] });
                    return;
                }
                case 'flow-map-end':
                case 'flow-seq-end':
                    fc.end.push(this.sourceToken);
                    return;
            }
            const bv = this.startBlockValue(fc);
            /* istanbul ignore else should not happen */
            if (bv)
                this.stack.push(bv);
            else {
                yield* this.pop();
                yield* this.step();
            }
        }
        else {
            const parent = this.peek(2);
            if (parent.type === 'block-map' &&
                ((this.type === 'map-value-ind' && parent.indent === fc.indent) ||
                    (this.type === 'newline' &&
                        !parent.items[parent.items.length - 1].sep))) {
                yield* this.pop();
                yield* this.step();
            }
            else if (this.type === 'map-value-ind' &&
                parent.type !== 'flow-collection') {
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                fixFlowSeqItems(fc);
                const sep = fc.end.splice(1, fc.end.length);
                sep.push(this.sourceToken);
                const map = {
                    type: 'block-map',
                    offset: fc.offset,
                    indent: fc.indent,
                    items: [{ start, key: fc, sep }]
                };
                this.onKeyLine = true;
                this.stack[this.stack.length - 1] = map;
            }
            else {
                yield* this.lineEnd(fc);
            }
        }
    }
    flowScalar(type) {
        if (this.onNewLine) {
            let nl = this.source.indexOf('\n') + 1;
            while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf('\n', nl) + 1;
            }
        }
        return {
            type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
    }
    startBlockValue(parent) {
        switch (this.type) {
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return this.flowScalar(this.type);
            case 'block-scalar-header':
                return {
                    type: 'block-scalar',
                    offset: this.offset,
                    indent: this.indent,
                    props: [this.sourceToken],
                    source: ''
                };
            case 'flow-map-start':
            case 'flow-seq-start':
                return {
                    type: 'flow-collection',
                    offset: this.offset,
                    indent: this.indent,
                    start: this.sourceToken,
                    items: [],
                    end: []
                };
            case 'seq-item-ind':
                return {
                    type: 'block-seq',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [this.sourceToken] }]
                };
            case 'explicit-key-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                start.push(this.sourceToken);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, explicitKey: true }]
                };
            }
            case 'map-value-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                };
            }
        }
        return null;
    }
    atIndentedComment(start, indent) {
        if (this.type !== 'comment')
            return false;
        if (this.indent <= indent)
            return false;
        return start.every(st => st.type === 'newline' || st.type === 'space');
    }
    *documentEnd(docEnd) {
        if (this.type !== 'doc-mode') {
            if (docEnd.end)
                docEnd.end.push(this.sourceToken);
            else
                docEnd.end = [this.sourceToken];
            if (this.type === 'newline')
                yield* this.pop();
        }
    }
    *lineEnd(token) {
        switch (this.type) {
            case 'comma':
            case 'doc-start':
            case 'doc-end':
            case 'flow-seq-end':
            case 'flow-map-end':
            case 'map-value-ind':
                yield* this.pop();
                yield* this.step();
                break;
            case 'newline':
                this.onKeyLine = false;
            // fallthrough
            case 'space':
            case 'comment':
            default:
                // all other values are errors
                if (token.end)
                    token.end.push(this.sourceToken);
                else
                    token.end = [this.sourceToken];
                if (this.type === 'newline')
                    yield* this.pop();
        }
    }
}

exports.Parser = Parser;


/***/ }),

/***/ 4047:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var composer = __nccwpck_require__(9984);
var Document = __nccwpck_require__(3021);
var errors = __nccwpck_require__(1464);
var log = __nccwpck_require__(7249);
var identity = __nccwpck_require__(1127);
var lineCounter = __nccwpck_require__(6628);
var parser = __nccwpck_require__(3456);

function parseOptions(options) {
    const prettyErrors = options.prettyErrors !== false;
    const lineCounter$1 = options.lineCounter || (prettyErrors && new lineCounter.LineCounter()) || null;
    return { lineCounter: lineCounter$1, prettyErrors };
}
/**
 * Parse the input as a stream of YAML documents.
 *
 * Documents should be separated from each other by `...` or `---` marker lines.
 *
 * @returns If an empty `docs` array is returned, it will be of type
 *   EmptyStream and contain additional stream information. In
 *   TypeScript, you should use `'empty' in docs` as a type guard for it.
 */
function parseAllDocuments(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    const docs = Array.from(composer$1.compose(parser$1.parse(source)));
    if (prettyErrors && lineCounter)
        for (const doc of docs) {
            doc.errors.forEach(errors.prettifyError(source, lineCounter));
            doc.warnings.forEach(errors.prettifyError(source, lineCounter));
        }
    if (docs.length > 0)
        return docs;
    return Object.assign([], { empty: true }, composer$1.streamInfo());
}
/** Parse an input string into a single YAML.Document */
function parseDocument(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    // `doc` is always set by compose.end(true) at the very latest
    let doc = null;
    for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
            doc = _doc;
        else if (doc.options.logLevel !== 'silent') {
            doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
            break;
        }
    }
    if (prettyErrors && lineCounter) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter));
    }
    return doc;
}
function parse(src, reviver, options) {
    let _reviver = undefined;
    if (typeof reviver === 'function') {
        _reviver = reviver;
    }
    else if (options === undefined && reviver && typeof reviver === 'object') {
        options = reviver;
    }
    const doc = parseDocument(src, options);
    if (!doc)
        return null;
    doc.warnings.forEach(warning => log.warn(doc.options.logLevel, warning));
    if (doc.errors.length > 0) {
        if (doc.options.logLevel !== 'silent')
            throw doc.errors[0];
        else
            doc.errors = [];
    }
    return doc.toJS(Object.assign({ reviver: _reviver }, options));
}
function stringify(value, replacer, options) {
    let _replacer = null;
    if (typeof replacer === 'function' || Array.isArray(replacer)) {
        _replacer = replacer;
    }
    else if (options === undefined && replacer) {
        options = replacer;
    }
    if (typeof options === 'string')
        options = options.length;
    if (typeof options === 'number') {
        const indent = Math.round(options);
        options = indent < 1 ? undefined : indent > 8 ? { indent: 8 } : { indent };
    }
    if (value === undefined) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
            return undefined;
    }
    if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
    return new Document.Document(value, _replacer, options).toString(options);
}

exports.parse = parse;
exports.parseAllDocuments = parseAllDocuments;
exports.parseDocument = parseDocument;
exports.stringify = stringify;


/***/ }),

/***/ 5840:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var map = __nccwpck_require__(7451);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var tags = __nccwpck_require__(18);

const sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
class Schema {
    constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat)
            ? tags.getTags(compat, 'compat')
            : compat
                ? tags.getTags(null, compat)
                : null;
        this.name = (typeof schema === 'string' && schema) || 'core';
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        // Used by createMap()
        this.sortMapEntries =
            typeof sortMapEntries === 'function'
                ? sortMapEntries
                : sortMapEntries === true
                    ? sortMapEntriesByKey
                    : null;
    }
    clone() {
        const copy = Object.create(Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
    }
}

exports.Schema = Schema;


/***/ }),

/***/ 7451:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var YAMLMap = __nccwpck_require__(4454);

const map = {
    collection: 'map',
    default: true,
    nodeClass: YAMLMap.YAMLMap,
    tag: 'tag:yaml.org,2002:map',
    resolve(map, onError) {
        if (!identity.isMap(map))
            onError('Expected a mapping for this tag');
        return map;
    },
    createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
};

exports.map = map;


/***/ }),

/***/ 3632:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

const nullTag = {
    identify: value => value == null,
    createNode: () => new Scalar.Scalar(null),
    default: true,
    tag: 'tag:yaml.org,2002:null',
    test: /^(?:~|[Nn]ull|NULL)?$/,
    resolve: () => new Scalar.Scalar(null),
    stringify: ({ source }, ctx) => typeof source === 'string' && nullTag.test.test(source)
        ? source
        : ctx.options.nullStr
};

exports.nullTag = nullTag;


/***/ }),

/***/ 1706:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var YAMLSeq = __nccwpck_require__(2223);

const seq = {
    collection: 'seq',
    default: true,
    nodeClass: YAMLSeq.YAMLSeq,
    tag: 'tag:yaml.org,2002:seq',
    resolve(seq, onError) {
        if (!identity.isSeq(seq))
            onError('Expected a sequence for this tag');
        return seq;
    },
    createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
};

exports.seq = seq;


/***/ }),

/***/ 6464:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyString = __nccwpck_require__(3069);

const string = {
    identify: value => typeof value === 'string',
    default: true,
    tag: 'tag:yaml.org,2002:str',
    resolve: str => str,
    stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
    }
};

exports.string = string;


/***/ }),

/***/ 3959:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

const boolTag = {
    identify: value => typeof value === 'boolean',
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
    resolve: str => new Scalar.Scalar(str[0] === 't' || str[0] === 'T'),
    stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
            const sv = source[0] === 't' || source[0] === 'T';
            if (value === sv)
                return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
};

exports.boolTag = boolTag;


/***/ }),

/***/ 8405:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var stringifyNumber = __nccwpck_require__(8689);

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: str => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
    resolve: str => parseFloat(str),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
    resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf('.');
        if (dot !== -1 && str[str.length - 1] === '0')
            node.minFractionDigits = str.length - dot - 1;
        return node;
    },
    stringify: stringifyNumber.stringifyNumber
};

exports.float = float;
exports.floatExp = floatExp;
exports.floatNaN = floatNaN;


/***/ }),

/***/ 9874:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
const intResolve = (str, offset, radix, { intAsBigInt }) => (intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix));
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
    return stringifyNumber.stringifyNumber(node);
}
const intOct = {
    identify: value => intIdentify(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^0o[0-7]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
    stringify: node => intStringify(node, 8, '0o')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
};
const intHex = {
    identify: value => intIdentify(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^0x[0-9a-fA-F]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

exports.int = int;
exports.intHex = intHex;
exports.intOct = intOct;


/***/ }),

/***/ 896:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var bool = __nccwpck_require__(3959);
var float = __nccwpck_require__(8405);
var int = __nccwpck_require__(9874);

const schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.boolTag,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float
];

exports.schema = schema;


/***/ }),

/***/ 3559:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var map = __nccwpck_require__(7451);
var seq = __nccwpck_require__(1706);

function intIdentify(value) {
    return typeof value === 'bigint' || Number.isInteger(value);
}
const stringifyJSON = ({ value }) => JSON.stringify(value);
const jsonScalars = [
    {
        identify: value => typeof value === 'string',
        default: true,
        tag: 'tag:yaml.org,2002:str',
        resolve: str => str,
        stringify: stringifyJSON
    },
    {
        identify: value => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: 'tag:yaml.org,2002:null',
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
    },
    {
        identify: value => typeof value === 'boolean',
        default: true,
        tag: 'tag:yaml.org,2002:bool',
        test: /^true$|^false$/,
        resolve: str => str === 'true',
        stringify: stringifyJSON
    },
    {
        identify: intIdentify,
        default: true,
        tag: 'tag:yaml.org,2002:int',
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
    },
    {
        identify: value => typeof value === 'number',
        default: true,
        tag: 'tag:yaml.org,2002:float',
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: str => parseFloat(str),
        stringify: stringifyJSON
    }
];
const jsonError = {
    default: true,
    tag: '',
    test: /^/,
    resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
    }
};
const schema = [map.map, seq.seq].concat(jsonScalars, jsonError);

exports.schema = schema;


/***/ }),

/***/ 18:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var bool = __nccwpck_require__(3959);
var float = __nccwpck_require__(8405);
var int = __nccwpck_require__(9874);
var schema = __nccwpck_require__(896);
var schema$1 = __nccwpck_require__(3559);
var binary = __nccwpck_require__(6083);
var merge = __nccwpck_require__(452);
var omap = __nccwpck_require__(303);
var pairs = __nccwpck_require__(8385);
var schema$2 = __nccwpck_require__(5913);
var set = __nccwpck_require__(1528);
var timestamp = __nccwpck_require__(6752);

const schemas = new Map([
    ['core', schema.schema],
    ['failsafe', [map.map, seq.seq, string.string]],
    ['json', schema$1.schema],
    ['yaml11', schema$2.schema],
    ['yaml-1.1', schema$2.schema]
]);
const tagsByName = {
    binary: binary.binary,
    bool: bool.boolTag,
    float: float.float,
    floatExp: float.floatExp,
    floatNaN: float.floatNaN,
    floatTime: timestamp.floatTime,
    int: int.int,
    intHex: int.intHex,
    intOct: int.intOct,
    intTime: timestamp.intTime,
    map: map.map,
    merge: merge.merge,
    null: _null.nullTag,
    omap: omap.omap,
    pairs: pairs.pairs,
    seq: seq.seq,
    set: set.set,
    timestamp: timestamp.timestamp
};
const coreKnownTags = {
    'tag:yaml.org,2002:binary': binary.binary,
    'tag:yaml.org,2002:merge': merge.merge,
    'tag:yaml.org,2002:omap': omap.omap,
    'tag:yaml.org,2002:pairs': pairs.pairs,
    'tag:yaml.org,2002:set': set.set,
    'tag:yaml.org,2002:timestamp': timestamp.timestamp
};
function getTags(customTags, schemaName, addMergeTag) {
    const schemaTags = schemas.get(schemaName);
    if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge.merge)
            ? schemaTags.concat(merge.merge)
            : schemaTags.slice();
    }
    let tags = schemaTags;
    if (!tags) {
        if (Array.isArray(customTags))
            tags = [];
        else {
            const keys = Array.from(schemas.keys())
                .filter(key => key !== 'yaml11')
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
    }
    if (Array.isArray(customTags)) {
        for (const tag of customTags)
            tags = tags.concat(tag);
    }
    else if (typeof customTags === 'function') {
        tags = customTags(tags.slice());
    }
    if (addMergeTag)
        tags = tags.concat(merge.merge);
    return tags.reduce((tags, tag) => {
        const tagObj = typeof tag === 'string' ? tagsByName[tag] : tag;
        if (!tagObj) {
            const tagName = JSON.stringify(tag);
            const keys = Object.keys(tagsByName)
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags.includes(tagObj))
            tags.push(tagObj);
        return tags;
    }, []);
}

exports.coreKnownTags = coreKnownTags;
exports.getTags = getTags;


/***/ }),

/***/ 6083:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_buffer = __nccwpck_require__(181);
var Scalar = __nccwpck_require__(3301);
var stringifyString = __nccwpck_require__(3069);

const binary = {
    identify: value => value instanceof Uint8Array, // Buffer inherits from Uint8Array
    default: false,
    tag: 'tag:yaml.org,2002:binary',
    /**
     * Returns a Buffer in node and an Uint8Array in browsers
     *
     * To use the resulting buffer as an image, you'll want to do something like:
     *
     *   const blob = new Blob([buffer], { type: 'image/jpeg' })
     *   document.querySelector('#photo').src = URL.createObjectURL(blob)
     */
    resolve(src, onError) {
        if (typeof node_buffer.Buffer === 'function') {
            return node_buffer.Buffer.from(src, 'base64');
        }
        else if (typeof atob === 'function') {
            // On IE 11, atob() can't handle newlines
            const str = atob(src.replace(/[\n\r]/g, ''));
            const buffer = new Uint8Array(str.length);
            for (let i = 0; i < str.length; ++i)
                buffer[i] = str.charCodeAt(i);
            return buffer;
        }
        else {
            onError('This environment does not support reading binary tags; either Buffer or atob is required');
            return src;
        }
    },
    stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
            return '';
        const buf = value; // checked earlier by binary.identify()
        let str;
        if (typeof node_buffer.Buffer === 'function') {
            str =
                buf instanceof node_buffer.Buffer
                    ? buf.toString('base64')
                    : node_buffer.Buffer.from(buf.buffer).toString('base64');
        }
        else if (typeof btoa === 'function') {
            let s = '';
            for (let i = 0; i < buf.length; ++i)
                s += String.fromCharCode(buf[i]);
            str = btoa(s);
        }
        else {
            throw new Error('This environment does not support writing binary tags; either Buffer or btoa is required');
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
            const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
            const n = Math.ceil(str.length / lineWidth);
            const lines = new Array(n);
            for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
                lines[i] = str.substr(o, lineWidth);
            }
            str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? '\n' : ' ');
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
    }
};

exports.binary = binary;


/***/ }),

/***/ 8398:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

function boolStringify({ value, source }, ctx) {
    const boolObj = value ? trueTag : falseTag;
    if (source && boolObj.test.test(source))
        return source;
    return value ? ctx.options.trueStr : ctx.options.falseStr;
}
const trueTag = {
    identify: value => value === true,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
    resolve: () => new Scalar.Scalar(true),
    stringify: boolStringify
};
const falseTag = {
    identify: value => value === false,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
    resolve: () => new Scalar.Scalar(false),
    stringify: boolStringify
};

exports.falseTag = falseTag;
exports.trueTag = trueTag;


/***/ }),

/***/ 5782:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var stringifyNumber = __nccwpck_require__(8689);

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (str) => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
    resolve: (str) => parseFloat(str.replace(/_/g, '')),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
    resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, '')));
        const dot = str.indexOf('.');
        if (dot !== -1) {
            const f = str.substring(dot + 1).replace(/_/g, '');
            if (f[f.length - 1] === '0')
                node.minFractionDigits = f.length;
        }
        return node;
    },
    stringify: stringifyNumber.stringifyNumber
};

exports.float = float;
exports.floatExp = floatExp;
exports.floatNaN = floatNaN;


/***/ }),

/***/ 873:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
function intResolve(str, offset, radix, { intAsBigInt }) {
    const sign = str[0];
    if (sign === '-' || sign === '+')
        offset += 1;
    str = str.substring(offset).replace(/_/g, '');
    if (intAsBigInt) {
        switch (radix) {
            case 2:
                str = `0b${str}`;
                break;
            case 8:
                str = `0o${str}`;
                break;
            case 16:
                str = `0x${str}`;
                break;
        }
        const n = BigInt(str);
        return sign === '-' ? BigInt(-1) * n : n;
    }
    const n = parseInt(str, radix);
    return sign === '-' ? -1 * n : n;
}
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? '-' + prefix + str.substr(1) : prefix + str;
    }
    return stringifyNumber.stringifyNumber(node);
}
const intBin = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'BIN',
    test: /^[-+]?0b[0-1_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
    stringify: node => intStringify(node, 2, '0b')
};
const intOct = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^[-+]?0[0-7_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
    stringify: node => intStringify(node, 8, '0')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9][0-9_]*$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
};
const intHex = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^[-+]?0x[0-9a-fA-F_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

exports.int = int;
exports.intBin = intBin;
exports.intHex = intHex;
exports.intOct = intOct;


/***/ }),

/***/ 452:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);

// If the value associated with a merge key is a single mapping node, each of
// its key/value pairs is inserted into the current mapping, unless the key
// already exists in it. If the value associated with the merge key is a
// sequence, then this sequence is expected to contain mapping nodes and each
// of these nodes is merged in turn according to its order in the sequence.
// Keys in mapping nodes earlier in the sequence override keys specified in
// later mapping nodes. -- http://yaml.org/type/merge.html
const MERGE_KEY = '<<';
const merge = {
    identify: value => value === MERGE_KEY ||
        (typeof value === 'symbol' && value.description === MERGE_KEY),
    default: 'key',
    tag: 'tag:yaml.org,2002:merge',
    test: /^<<$/,
    resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
    }),
    stringify: () => MERGE_KEY
};
const isMergeKey = (ctx, key) => (merge.identify(key) ||
    (identity.isScalar(key) &&
        (!key.type || key.type === Scalar.Scalar.PLAIN) &&
        merge.identify(key.value))) &&
    ctx?.doc.schema.tags.some(tag => tag.tag === merge.tag && tag.default);
function addMergeToJSMap(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (identity.isSeq(source))
        for (const it of source.items)
            mergeValue(ctx, map, it);
    else if (Array.isArray(source))
        for (const it of source)
            mergeValue(ctx, map, it);
    else
        mergeValue(ctx, map, source);
}
function mergeValue(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (!identity.isMap(source))
        throw new Error('Merge sources must be maps or map aliases');
    const srcMap = source.toJSON(null, ctx, Map);
    for (const [key, value] of srcMap) {
        if (map instanceof Map) {
            if (!map.has(key))
                map.set(key, value);
        }
        else if (map instanceof Set) {
            map.add(key);
        }
        else if (!Object.prototype.hasOwnProperty.call(map, key)) {
            Object.defineProperty(map, key, {
                value,
                writable: true,
                enumerable: true,
                configurable: true
            });
        }
    }
    return map;
}
function resolveAliasValue(ctx, value) {
    return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
}

exports.addMergeToJSMap = addMergeToJSMap;
exports.isMergeKey = isMergeKey;
exports.merge = merge;


/***/ }),

/***/ 303:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var pairs = __nccwpck_require__(8385);

class YAMLOMap extends YAMLSeq.YAMLSeq {
    constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = YAMLOMap.tag;
    }
    /**
     * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
     * but TypeScript won't allow widening the signature of a child method.
     */
    toJSON(_, ctx) {
        if (!ctx)
            return super.toJSON(_);
        const map = new Map();
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const pair of this.items) {
            let key, value;
            if (identity.isPair(pair)) {
                key = toJS.toJS(pair.key, '', ctx);
                value = toJS.toJS(pair.value, key, ctx);
            }
            else {
                key = toJS.toJS(pair, '', ctx);
            }
            if (map.has(key))
                throw new Error('Ordered maps must not include duplicate keys');
            map.set(key, value);
        }
        return map;
    }
    static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap = new this();
        omap.items = pairs$1.items;
        return omap;
    }
}
YAMLOMap.tag = 'tag:yaml.org,2002:omap';
const omap = {
    collection: 'seq',
    identify: value => value instanceof Map,
    nodeClass: YAMLOMap,
    default: false,
    tag: 'tag:yaml.org,2002:omap',
    resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
            if (identity.isScalar(key)) {
                if (seenKeys.includes(key.value)) {
                    onError(`Ordered maps must not include duplicate keys: ${key.value}`);
                }
                else {
                    seenKeys.push(key.value);
                }
            }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
    },
    createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
};

exports.YAMLOMap = YAMLOMap;
exports.omap = omap;


/***/ }),

/***/ 8385:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);
var YAMLSeq = __nccwpck_require__(2223);

function resolvePairs(seq, onError) {
    if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
            let item = seq.items[i];
            if (identity.isPair(item))
                continue;
            else if (identity.isMap(item)) {
                if (item.items.length > 1)
                    onError('Each pair must have its own sequence indicator');
                const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
                if (item.commentBefore)
                    pair.key.commentBefore = pair.key.commentBefore
                        ? `${item.commentBefore}\n${pair.key.commentBefore}`
                        : item.commentBefore;
                if (item.comment) {
                    const cn = pair.value ?? pair.key;
                    cn.comment = cn.comment
                        ? `${item.comment}\n${cn.comment}`
                        : item.comment;
                }
                item = pair;
            }
            seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
    }
    else
        onError('Expected a sequence for this tag');
    return seq;
}
function createPairs(schema, iterable, ctx) {
    const { replacer } = ctx;
    const pairs = new YAMLSeq.YAMLSeq(schema);
    pairs.tag = 'tag:yaml.org,2002:pairs';
    let i = 0;
    if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
            if (typeof replacer === 'function')
                it = replacer.call(iterable, String(i++), it);
            let key, value;
            if (Array.isArray(it)) {
                if (it.length === 2) {
                    key = it[0];
                    value = it[1];
                }
                else
                    throw new TypeError(`Expected [key, value] tuple: ${it}`);
            }
            else if (it && it instanceof Object) {
                const keys = Object.keys(it);
                if (keys.length === 1) {
                    key = keys[0];
                    value = it[key];
                }
                else {
                    throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
                }
            }
            else {
                key = it;
            }
            pairs.items.push(Pair.createPair(key, value, ctx));
        }
    return pairs;
}
const pairs = {
    collection: 'seq',
    default: false,
    tag: 'tag:yaml.org,2002:pairs',
    resolve: resolvePairs,
    createNode: createPairs
};

exports.createPairs = createPairs;
exports.pairs = pairs;
exports.resolvePairs = resolvePairs;


/***/ }),

/***/ 5913:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var binary = __nccwpck_require__(6083);
var bool = __nccwpck_require__(8398);
var float = __nccwpck_require__(5782);
var int = __nccwpck_require__(873);
var merge = __nccwpck_require__(452);
var omap = __nccwpck_require__(303);
var pairs = __nccwpck_require__(8385);
var set = __nccwpck_require__(1528);
var timestamp = __nccwpck_require__(6752);

const schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.trueTag,
    bool.falseTag,
    int.intBin,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float,
    binary.binary,
    merge.merge,
    omap.omap,
    pairs.pairs,
    set.set,
    timestamp.intTime,
    timestamp.floatTime,
    timestamp.timestamp
];

exports.schema = schema;


/***/ }),

/***/ 1528:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);

class YAMLSet extends YAMLMap.YAMLMap {
    constructor(schema) {
        super(schema);
        this.tag = YAMLSet.tag;
    }
    add(key) {
        let pair;
        if (identity.isPair(key))
            pair = key;
        else if (key &&
            typeof key === 'object' &&
            'key' in key &&
            'value' in key &&
            key.value === null)
            pair = new Pair.Pair(key.key, null);
        else
            pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
            this.items.push(pair);
    }
    /**
     * If `keepPair` is `true`, returns the Pair matching `key`.
     * Otherwise, returns the value of that Pair's key.
     */
    get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair)
            ? identity.isScalar(pair.key)
                ? pair.key.value
                : pair.key
            : pair;
    }
    set(key, value) {
        if (typeof value !== 'boolean')
            throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
            this.items.splice(this.items.indexOf(prev), 1);
        }
        else if (!prev && value) {
            this.items.push(new Pair.Pair(key));
        }
    }
    toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        if (this.hasAllNullValues(true))
            return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
            throw new Error('Set items must all have null values');
    }
    static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
            for (let value of iterable) {
                if (typeof replacer === 'function')
                    value = replacer.call(iterable, value, value);
                set.items.push(Pair.createPair(value, null, ctx));
            }
        return set;
    }
}
YAMLSet.tag = 'tag:yaml.org,2002:set';
const set = {
    collection: 'map',
    identify: value => value instanceof Set,
    nodeClass: YAMLSet,
    default: false,
    tag: 'tag:yaml.org,2002:set',
    createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
    resolve(map, onError) {
        if (identity.isMap(map)) {
            if (map.hasAllNullValues(true))
                return Object.assign(new YAMLSet(), map);
            else
                onError('Set items must all have null values');
        }
        else
            onError('Expected a mapping for this tag');
        return map;
    }
};

exports.YAMLSet = YAMLSet;
exports.set = set;


/***/ }),

/***/ 6752:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

/** Internal types handle bigint as number, because TS can't figure it out. */
function parseSexagesimal(str, asBigInt) {
    const sign = str[0];
    const parts = sign === '-' || sign === '+' ? str.substring(1) : str;
    const num = (n) => asBigInt ? BigInt(n) : Number(n);
    const res = parts
        .replace(/_/g, '')
        .split(':')
        .reduce((res, p) => res * num(60) + num(p), num(0));
    return (sign === '-' ? num(-1) * res : res);
}
/**
 * hhhh:mm:ss.sss
 *
 * Internal types handle bigint as number, because TS can't figure it out.
 */
function stringifySexagesimal(node) {
    let { value } = node;
    let num = (n) => n;
    if (typeof value === 'bigint')
        num = n => BigInt(n);
    else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node);
    let sign = '';
    if (value < 0) {
        sign = '-';
        value *= num(-1);
    }
    const _60 = num(60);
    const parts = [value % _60]; // seconds, including ms
    if (value < 60) {
        parts.unshift(0); // at least one : is required
    }
    else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60); // minutes
        if (value >= 60) {
            value = (value - parts[0]) / _60;
            parts.unshift(value); // hours
        }
    }
    return (sign +
        parts
            .map(n => String(n).padStart(2, '0'))
            .join(':')
            .replace(/000000\d*$/, '') // % 60 may introduce error
    );
}
const intTime = {
    identify: value => typeof value === 'bigint' || Number.isInteger(value),
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
    resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
    stringify: stringifySexagesimal
};
const floatTime = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
    resolve: str => parseSexagesimal(str, false),
    stringify: stringifySexagesimal
};
const timestamp = {
    identify: value => value instanceof Date,
    default: true,
    tag: 'tag:yaml.org,2002:timestamp',
    // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
    // may be omitted altogether, resulting in a date format. In such a case, the time part is
    // assumed to be 00:00:00Z (start of day, UTC).
    test: RegExp('^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})' + // YYYY-Mm-Dd
        '(?:' + // time is optional
        '(?:t|T|[ \\t]+)' + // t | T | whitespace
        '([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)' + // Hh:Mm:Ss(.ss)?
        '(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?' + // Z | +5 | -03:30
        ')?$'),
    resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
            throw new Error('!!timestamp expects a date, starting with yyyy-mm-dd');
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + '00').substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== 'Z') {
            let d = parseSexagesimal(tz, false);
            if (Math.abs(d) < 30)
                d *= 60;
            date -= 60000 * d;
        }
        return new Date(date);
    },
    stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, '') ?? ''
};

exports.floatTime = floatTime;
exports.intTime = intTime;
exports.timestamp = timestamp;


/***/ }),

/***/ 4475:
/***/ ((__unused_webpack_module, exports) => {



const FOLD_FLOW = 'flow';
const FOLD_BLOCK = 'block';
const FOLD_QUOTED = 'quoted';
/**
 * Tries to keep input at up to `lineWidth` characters, splitting only on spaces
 * not followed by newlines or spaces unless `mode` is `'quoted'`. Lines are
 * terminated with `\n` and started with `indent`.
 */
function foldFlowLines(text, indent, mode = 'flow', { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
    if (!lineWidth || lineWidth < 0)
        return text;
    if (lineWidth < minContentWidth)
        minContentWidth = 0;
    const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
    if (text.length <= endStep)
        return text;
    const folds = [];
    const escapedFolds = {};
    let end = lineWidth - indent.length;
    if (typeof indentAtStart === 'number') {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
            folds.push(0);
        else
            end = lineWidth - indentAtStart;
    }
    let split = undefined;
    let prev = undefined;
    let overflow = false;
    let i = -1;
    let escStart = -1;
    let escEnd = -1;
    if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
            end = i + endStep;
    }
    for (let ch; (ch = text[(i += 1)]);) {
        if (mode === FOLD_QUOTED && ch === '\\') {
            escStart = i;
            switch (text[i + 1]) {
                case 'x':
                    i += 3;
                    break;
                case 'u':
                    i += 5;
                    break;
                case 'U':
                    i += 9;
                    break;
                default:
                    i += 1;
            }
            escEnd = i;
        }
        if (ch === '\n') {
            if (mode === FOLD_BLOCK)
                i = consumeMoreIndentedLines(text, i, indent.length);
            end = i + indent.length + endStep;
            split = undefined;
        }
        else {
            if (ch === ' ' &&
                prev &&
                prev !== ' ' &&
                prev !== '\n' &&
                prev !== '\t') {
                // space surrounded by non-space can be replaced with newline + indent
                const next = text[i + 1];
                if (next && next !== ' ' && next !== '\n' && next !== '\t')
                    split = i;
            }
            if (i >= end) {
                if (split) {
                    folds.push(split);
                    end = split + endStep;
                    split = undefined;
                }
                else if (mode === FOLD_QUOTED) {
                    // white-space collected at end may stretch past lineWidth
                    while (prev === ' ' || prev === '\t') {
                        prev = ch;
                        ch = text[(i += 1)];
                        overflow = true;
                    }
                    // Account for newline escape, but don't break preceding escape
                    const j = i > escEnd + 1 ? i - 2 : escStart - 1;
                    // Bail out if lineWidth & minContentWidth are shorter than an escape string
                    if (escapedFolds[j])
                        return text;
                    folds.push(j);
                    escapedFolds[j] = true;
                    end = j + endStep;
                    split = undefined;
                }
                else {
                    overflow = true;
                }
            }
        }
        prev = ch;
    }
    if (overflow && onOverflow)
        onOverflow();
    if (folds.length === 0)
        return text;
    if (onFold)
        onFold();
    let res = text.slice(0, folds[0]);
    for (let i = 0; i < folds.length; ++i) {
        const fold = folds[i];
        const end = folds[i + 1] || text.length;
        if (fold === 0)
            res = `\n${indent}${text.slice(0, end)}`;
        else {
            if (mode === FOLD_QUOTED && escapedFolds[fold])
                res += `${text[fold]}\\`;
            res += `\n${indent}${text.slice(fold + 1, end)}`;
        }
    }
    return res;
}
/**
 * Presumes `i + 1` is at the start of a line
 * @returns index of last newline in more-indented block
 */
function consumeMoreIndentedLines(text, i, indent) {
    let end = i;
    let start = i + 1;
    let ch = text[start];
    while (ch === ' ' || ch === '\t') {
        if (i < start + indent) {
            ch = text[++i];
        }
        else {
            do {
                ch = text[++i];
            } while (ch && ch !== '\n');
            end = i;
            start = i + 1;
            ch = text[start];
        }
    }
    return end;
}

exports.FOLD_BLOCK = FOLD_BLOCK;
exports.FOLD_FLOW = FOLD_FLOW;
exports.FOLD_QUOTED = FOLD_QUOTED;
exports.foldFlowLines = foldFlowLines;


/***/ }),

/***/ 2148:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var anchors = __nccwpck_require__(1596);
var identity = __nccwpck_require__(1127);
var stringifyComment = __nccwpck_require__(9799);
var stringifyString = __nccwpck_require__(3069);

function createStringifyContext(doc, options) {
    const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: 'PLAIN',
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: 'false',
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: 'null',
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: 'true',
        verifyAliasOrder: true
    }, doc.schema.toStringOptions, options);
    let inFlow;
    switch (opt.collectionStyle) {
        case 'block':
            inFlow = false;
            break;
        case 'flow':
            inFlow = true;
            break;
        default:
            inFlow = null;
    }
    return {
        anchors: new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? ' ' : '',
        indent: '',
        indentStep: typeof opt.indent === 'number' ? ' '.repeat(opt.indent) : '  ',
        inFlow,
        options: opt
    };
}
function getTagObject(tags, item) {
    if (item.tag) {
        const match = tags.filter(t => t.tag === item.tag);
        if (match.length > 0)
            return match.find(t => t.format === item.format) ?? match[0];
    }
    let tagObj = undefined;
    let obj;
    if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter(t => t.identify?.(obj));
        if (match.length > 1) {
            const testMatch = match.filter(t => t.test);
            if (testMatch.length > 0)
                match = testMatch;
        }
        tagObj =
            match.find(t => t.format === item.format) ?? match.find(t => !t.format);
    }
    else {
        obj = item;
        tagObj = tags.find(t => t.nodeClass && obj instanceof t.nodeClass);
    }
    if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? 'null' : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
    }
    return tagObj;
}
// needs to be called before value stringifier to allow for circular anchor refs
function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
    if (!doc.directives)
        return '';
    const props = [];
    const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
    if (anchor && anchors.anchorIsValid(anchor)) {
        anchors$1.add(anchor);
        props.push(`&${anchor}`);
    }
    const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
    if (tag)
        props.push(doc.directives.tagString(tag));
    return props.join(' ');
}
function stringify(item, ctx, onComment, onChompKeep) {
    if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
    if (identity.isAlias(item)) {
        if (ctx.doc.directives)
            return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
            throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        }
        else {
            if (ctx.resolvedAliases)
                ctx.resolvedAliases.add(item);
            else
                ctx.resolvedAliases = new Set([item]);
            item = item.resolve(ctx.doc);
        }
    }
    let tagObj = undefined;
    const node = identity.isNode(item)
        ? item
        : ctx.doc.createNode(item, { onTagObj: o => (tagObj = o) });
    tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
    const props = stringifyProps(node, tagObj, ctx);
    if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
    const str = typeof tagObj.stringify === 'function'
        ? tagObj.stringify(node, ctx, onComment, onChompKeep)
        : identity.isScalar(node)
            ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep)
            : node.toString(ctx, onComment, onChompKeep);
    if (!props)
        return str;
    return identity.isScalar(node) || str[0] === '{' || str[0] === '['
        ? `${props} ${str}`
        : `${props}\n${ctx.indent}${str}`;
}

exports.createStringifyContext = createStringifyContext;
exports.stringify = stringify;


/***/ }),

/***/ 1212:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyCollection(collection, ctx, options) {
    const flow = ctx.inFlow ?? collection.flow;
    const stringify = flow ? stringifyFlowCollection : stringifyBlockCollection;
    return stringify(collection, ctx, options);
}
function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
    const { indent, options: { commentString } } = ctx;
    const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
    let chompKeep = false; // flag for the preceding node's status
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
            if (!chompKeep && item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
            if (item.comment)
                comment = item.comment;
        }
        else if (identity.isPair(item)) {
            const ik = identity.isNode(item.key) ? item.key : null;
            if (ik) {
                if (!chompKeep && ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
            }
        }
        chompKeep = false;
        let str = stringify.stringify(item, itemCtx, () => (comment = null), () => (chompKeep = true));
        if (comment)
            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        if (chompKeep && comment)
            chompKeep = false;
        lines.push(blockItemPrefix + str);
    }
    let str;
    if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
    }
    else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
            const line = lines[i];
            str += line ? `\n${indent}${line}` : '\n';
        }
    }
    if (comment) {
        str += '\n' + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
            onComment();
    }
    else if (chompKeep && onChompKeep)
        onChompKeep();
    return str;
}
function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
    const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
    itemIndent += indentStep;
    const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
    });
    let reqNewline = false;
    let linesAtValue = 0;
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
            if (item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, false);
            if (item.comment)
                comment = item.comment;
        }
        else if (identity.isPair(item)) {
            const ik = identity.isNode(item.key) ? item.key : null;
            if (ik) {
                if (ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, false);
                if (ik.comment)
                    reqNewline = true;
            }
            const iv = identity.isNode(item.value) ? item.value : null;
            if (iv) {
                if (iv.comment)
                    comment = iv.comment;
                if (iv.commentBefore)
                    reqNewline = true;
            }
            else if (item.value == null && ik?.comment) {
                comment = ik.comment;
            }
        }
        if (comment)
            reqNewline = true;
        let str = stringify.stringify(item, itemCtx, () => (comment = null));
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes('\n'));
        if (i < items.length - 1) {
            str += ',';
        }
        else if (ctx.options.trailingComma) {
            if (ctx.options.lineWidth > 0) {
                reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) +
                    (str.length + 2) >
                    ctx.options.lineWidth);
            }
            if (reqNewline) {
                str += ',';
            }
        }
        if (comment)
            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
    }
    const { start, end } = flowChars;
    if (lines.length === 0) {
        return start + end;
    }
    else {
        if (!reqNewline) {
            const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
            reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
            let str = start;
            for (const line of lines)
                str += line ? `\n${indentStep}${indent}${line}` : '\n';
            return `${str}\n${indent}${end}`;
        }
        else {
            return `${start}${fcPadding}${lines.join(' ')}${fcPadding}${end}`;
        }
    }
}
function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
    if (comment && chompKeep)
        comment = comment.replace(/^\n+/, '');
    if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart()); // Avoid double indent on first line
    }
}

exports.stringifyCollection = stringifyCollection;


/***/ }),

/***/ 9799:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Stringifies a comment.
 *
 * Empty comment lines are left empty,
 * lines consisting of a single space are replaced by `#`,
 * and all other lines are prefixed with a `#`.
 */
const stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, '#');
function indentComment(comment, indent) {
    if (/^\n+$/.test(comment))
        return comment.substring(1);
    return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
}
const lineComment = (str, indent, comment) => str.endsWith('\n')
    ? indentComment(comment, indent)
    : comment.includes('\n')
        ? '\n' + indentComment(comment, indent)
        : (str.endsWith(' ') ? '' : ' ') + comment;

exports.indentComment = indentComment;
exports.lineComment = lineComment;
exports.stringifyComment = stringifyComment;


/***/ }),

/***/ 6829:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyDocument(doc, options) {
    const lines = [];
    let hasDirectives = options.directives === true;
    if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
            lines.push(dir);
            hasDirectives = true;
        }
        else if (doc.directives.docStart)
            hasDirectives = true;
    }
    if (hasDirectives)
        lines.push('---');
    const ctx = stringify.createStringifyContext(doc, options);
    const { commentString } = ctx.options;
    if (doc.commentBefore) {
        if (lines.length !== 1)
            lines.unshift('');
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ''));
    }
    let chompKeep = false;
    let contentComment = null;
    if (doc.contents) {
        if (identity.isNode(doc.contents)) {
            if (doc.contents.spaceBefore && hasDirectives)
                lines.push('');
            if (doc.contents.commentBefore) {
                const cs = commentString(doc.contents.commentBefore);
                lines.push(stringifyComment.indentComment(cs, ''));
            }
            // top-level block scalars need to be indented if followed by a comment
            ctx.forceBlockIndent = !!doc.comment;
            contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? undefined : () => (chompKeep = true);
        let body = stringify.stringify(doc.contents, ctx, () => (contentComment = null), onChompKeep);
        if (contentComment)
            body += stringifyComment.lineComment(body, '', commentString(contentComment));
        if ((body[0] === '|' || body[0] === '>') &&
            lines[lines.length - 1] === '---') {
            // Top-level block scalars with a preceding doc marker ought to use the
            // same line for their header.
            lines[lines.length - 1] = `--- ${body}`;
        }
        else
            lines.push(body);
    }
    else {
        lines.push(stringify.stringify(doc.contents, ctx));
    }
    if (doc.directives?.docEnd) {
        if (doc.comment) {
            const cs = commentString(doc.comment);
            if (cs.includes('\n')) {
                lines.push('...');
                lines.push(stringifyComment.indentComment(cs, ''));
            }
            else {
                lines.push(`... ${cs}`);
            }
        }
        else {
            lines.push('...');
        }
    }
    else {
        let dc = doc.comment;
        if (dc && chompKeep)
            dc = dc.replace(/^\n+/, '');
        if (dc) {
            if ((!chompKeep || contentComment) && lines[lines.length - 1] !== '')
                lines.push('');
            lines.push(stringifyComment.indentComment(commentString(dc), ''));
        }
    }
    return lines.join('\n') + '\n';
}

exports.stringifyDocument = stringifyDocument;


/***/ }),

/***/ 8689:
/***/ ((__unused_webpack_module, exports) => {



function stringifyNumber({ format, minFractionDigits, tag, value }) {
    if (typeof value === 'bigint')
        return String(value);
    const num = typeof value === 'number' ? value : Number(value);
    if (!isFinite(num))
        return isNaN(num) ? '.nan' : num < 0 ? '-.inf' : '.inf';
    let n = Object.is(value, -0) ? '-0' : JSON.stringify(value);
    if (!format &&
        minFractionDigits &&
        (!tag || tag === 'tag:yaml.org,2002:float') &&
        /^-?\d/.test(n) &&
        !n.includes('e')) {
        let i = n.indexOf('.');
        if (i < 0) {
            i = n.length;
            n += '.';
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
            n += '0';
    }
    return n;
}

exports.stringifyNumber = stringifyNumber;


/***/ }),

/***/ 9748:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
    const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
    let keyComment = (identity.isNode(key) && key.comment) || null;
    if (simpleKeys) {
        if (keyComment) {
            throw new Error('With simple keys, key nodes cannot have comments');
        }
        if (identity.isCollection(key) || (!identity.isNode(key) && typeof key === 'object')) {
            const msg = 'With simple keys, collection cannot be used as a key value';
            throw new Error(msg);
        }
    }
    let explicitKey = !simpleKeys &&
        (!key ||
            (keyComment && value == null && !ctx.inFlow) ||
            identity.isCollection(key) ||
            (identity.isScalar(key)
                ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL
                : typeof key === 'object'));
    ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
    });
    let keyCommentDone = false;
    let chompKeep = false;
    let str = stringify.stringify(key, ctx, () => (keyCommentDone = true), () => (chompKeep = true));
    if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
            throw new Error('With simple keys, single line scalar must not span more than 1024 characters');
        explicitKey = true;
    }
    if (ctx.inFlow) {
        if (allNullValues || value == null) {
            if (keyCommentDone && onComment)
                onComment();
            return str === '' ? '?' : explicitKey ? `? ${str}` : str;
        }
    }
    else if ((allNullValues && !simpleKeys) || (value == null && explicitKey)) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        }
        else if (chompKeep && onChompKeep)
            onChompKeep();
        return str;
    }
    if (keyCommentDone)
        keyComment = null;
    if (explicitKey) {
        if (keyComment)
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}\n${indent}:`;
    }
    else {
        str = `${str}:`;
        if (keyComment)
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
    }
    let vsb, vcb, valueComment;
    if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
    }
    else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === 'object')
            value = doc.createNode(value);
    }
    ctx.implicitKey = false;
    if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
    chompKeep = false;
    if (!indentSeq &&
        indentStep.length >= 2 &&
        !ctx.inFlow &&
        !explicitKey &&
        identity.isSeq(value) &&
        !value.flow &&
        !value.tag &&
        !value.anchor) {
        // If indentSeq === false, consider '- ' as part of indentation where possible
        ctx.indent = ctx.indent.substring(2);
    }
    let valueCommentDone = false;
    const valueStr = stringify.stringify(value, ctx, () => (valueCommentDone = true), () => (chompKeep = true));
    let ws = ' ';
    if (keyComment || vsb || vcb) {
        ws = vsb ? '\n' : '';
        if (vcb) {
            const cs = commentString(vcb);
            ws += `\n${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === '' && !ctx.inFlow) {
            if (ws === '\n' && valueComment)
                ws = '\n\n';
        }
        else {
            ws += `\n${ctx.indent}`;
        }
    }
    else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf('\n');
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
            let hasPropsLine = false;
            if (hasNewline && (vs0 === '&' || vs0 === '!')) {
                let sp0 = valueStr.indexOf(' ');
                if (vs0 === '&' &&
                    sp0 !== -1 &&
                    sp0 < nl0 &&
                    valueStr[sp0 + 1] === '!') {
                    sp0 = valueStr.indexOf(' ', sp0 + 1);
                }
                if (sp0 === -1 || nl0 < sp0)
                    hasPropsLine = true;
            }
            if (!hasPropsLine)
                ws = `\n${ctx.indent}`;
        }
    }
    else if (valueStr === '' || valueStr[0] === '\n') {
        ws = '';
    }
    str += ws + valueStr;
    if (ctx.inFlow) {
        if (valueCommentDone && onComment)
            onComment();
    }
    else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
    }
    else if (chompKeep && onChompKeep) {
        onChompKeep();
    }
    return str;
}

exports.stringifyPair = stringifyPair;


/***/ }),

/***/ 3069:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var foldFlowLines = __nccwpck_require__(4475);

const getFoldOptions = (ctx, isBlock) => ({
    indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
    lineWidth: ctx.options.lineWidth,
    minContentWidth: ctx.options.minContentWidth
});
// Also checks for lines starting with %, as parsing the output as YAML 1.1 will
// presume that's starting a new document.
const containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
function lineLengthOverLimit(str, lineWidth, indentLength) {
    if (!lineWidth || lineWidth < 0)
        return false;
    const limit = lineWidth - indentLength;
    const strLen = str.length;
    if (strLen <= limit)
        return false;
    for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === '\n') {
            if (i - start > limit)
                return true;
            start = i + 1;
            if (strLen - start <= limit)
                return false;
        }
    }
    return true;
}
function doubleQuotedString(value, ctx) {
    const json = JSON.stringify(value);
    if (ctx.options.doubleQuotedAsJSON)
        return json;
    const { implicitKey } = ctx;
    const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    let str = '';
    let start = 0;
    for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
            // space before newline needs to be escaped to not be folded
            str += json.slice(start, i) + '\\ ';
            i += 1;
            start = i;
            ch = '\\';
        }
        if (ch === '\\')
            switch (json[i + 1]) {
                case 'u':
                    {
                        str += json.slice(start, i);
                        const code = json.substr(i + 2, 4);
                        switch (code) {
                            case '0000':
                                str += '\\0';
                                break;
                            case '0007':
                                str += '\\a';
                                break;
                            case '000b':
                                str += '\\v';
                                break;
                            case '001b':
                                str += '\\e';
                                break;
                            case '0085':
                                str += '\\N';
                                break;
                            case '00a0':
                                str += '\\_';
                                break;
                            case '2028':
                                str += '\\L';
                                break;
                            case '2029':
                                str += '\\P';
                                break;
                            default:
                                if (code.substr(0, 2) === '00')
                                    str += '\\x' + code.substr(2);
                                else
                                    str += json.substr(i, 6);
                        }
                        i += 5;
                        start = i + 1;
                    }
                    break;
                case 'n':
                    if (implicitKey ||
                        json[i + 2] === '"' ||
                        json.length < minMultiLineLength) {
                        i += 1;
                    }
                    else {
                        // folding will eat first newline
                        str += json.slice(start, i) + '\n\n';
                        while (json[i + 2] === '\\' &&
                            json[i + 3] === 'n' &&
                            json[i + 4] !== '"') {
                            str += '\n';
                            i += 2;
                        }
                        str += indent;
                        // space after newline needs to be escaped to not be folded
                        if (json[i + 2] === ' ')
                            str += '\\';
                        i += 1;
                        start = i + 1;
                    }
                    break;
                default:
                    i += 1;
            }
    }
    str = start ? str + json.slice(start) : json;
    return implicitKey
        ? str
        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
}
function singleQuotedString(value, ctx) {
    if (ctx.options.singleQuote === false ||
        (ctx.implicitKey && value.includes('\n')) ||
        /[ \t]\n|\n[ \t]/.test(value) // single quoted string can't have leading or trailing whitespace around newline
    )
        return doubleQuotedString(value, ctx);
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`) + "'";
    return ctx.implicitKey
        ? res
        : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
}
function quotedString(value, ctx) {
    const { singleQuote } = ctx.options;
    let qs;
    if (singleQuote === false)
        qs = doubleQuotedString;
    else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
            qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
            qs = doubleQuotedString;
        else
            qs = singleQuote ? singleQuotedString : doubleQuotedString;
    }
    return qs(value, ctx);
}
// The negative lookbehind avoids a polynomial search,
// but isn't supported yet on Safari: https://caniuse.com/js-regexp-lookbehind
let blockEndNewlines;
try {
    blockEndNewlines = new RegExp('(^|(?<!\n))\n+(?!\n|$)', 'g');
}
catch {
    blockEndNewlines = /\n+(?!\n|$)/g;
}
function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
    const { blockQuote, commentString, lineWidth } = ctx.options;
    // 1. Block can't end in whitespace unless the last line is non-empty.
    // 2. Strings consisting of only whitespace are best rendered explicitly.
    if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
    }
    const indent = ctx.indent ||
        (ctx.forceBlockIndent || containsDocumentMarker(value) ? '  ' : '');
    const literal = blockQuote === 'literal'
        ? true
        : blockQuote === 'folded' || type === Scalar.Scalar.BLOCK_FOLDED
            ? false
            : type === Scalar.Scalar.BLOCK_LITERAL
                ? true
                : !lineLengthOverLimit(value, lineWidth, indent.length);
    if (!value)
        return literal ? '|\n' : '>\n';
    // determine chomping from whitespace at value end
    let chomp;
    let endStart;
    for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== '\n' && ch !== '\t' && ch !== ' ')
            break;
    }
    let end = value.substring(endStart);
    const endNlPos = end.indexOf('\n');
    if (endNlPos === -1) {
        chomp = '-'; // strip
    }
    else if (value === end || endNlPos !== end.length - 1) {
        chomp = '+'; // keep
        if (onChompKeep)
            onChompKeep();
    }
    else {
        chomp = ''; // clip
    }
    if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === '\n')
            end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
    }
    // determine indent indicator from whitespace at value start
    let startWithSpace = false;
    let startEnd;
    let startNlPos = -1;
    for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === ' ')
            startWithSpace = true;
        else if (ch === '\n')
            startNlPos = startEnd;
        else
            break;
    }
    let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
    if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
    }
    const indentSize = indent ? '2' : '1'; // root is at -1
    // Leading | or > is added later
    let header = (startWithSpace ? indentSize : '') + chomp;
    if (comment) {
        header += ' ' + commentString(comment.replace(/ ?[\r\n]+/g, ' '));
        if (onComment)
            onComment();
    }
    if (!literal) {
        const foldedValue = value
            .replace(/\n+/g, '\n$&')
            .replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, '$1$2') // more-indented lines aren't folded
            //                ^ more-ind. ^ empty     ^ capture next empty lines only at end of indent
            .replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== 'folded' && type !== Scalar.Scalar.BLOCK_FOLDED) {
            foldOptions.onOverflow = () => {
                literalFallback = true;
            };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
            return `>${header}\n${indent}${body}`;
    }
    value = value.replace(/\n+/g, `$&${indent}`);
    return `|${header}\n${indent}${start}${value}${end}`;
}
function plainString(item, ctx, onComment, onChompKeep) {
    const { type, value } = item;
    const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
    if ((implicitKey && value.includes('\n')) ||
        (inFlow && /[[\]{},]/.test(value))) {
        return quotedString(value, ctx);
    }
    if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        // not allowed:
        // - '-' or '?'
        // - start with an indicator character (except [?:-]) or /[?-] /
        // - '\n ', ': ' or ' \n' anywhere
        // - '#' not preceded by a non-space char
        // - end with ' ' or ':'
        return implicitKey || inFlow || !value.includes('\n')
            ? quotedString(value, ctx)
            : blockString(item, ctx, onComment, onChompKeep);
    }
    if (!implicitKey &&
        !inFlow &&
        type !== Scalar.Scalar.PLAIN &&
        value.includes('\n')) {
        // Where allowed & type not set explicitly, prefer block style for multiline strings
        return blockString(item, ctx, onComment, onChompKeep);
    }
    if (containsDocumentMarker(value)) {
        if (indent === '') {
            ctx.forceBlockIndent = true;
            return blockString(item, ctx, onComment, onChompKeep);
        }
        else if (implicitKey && indent === indentStep) {
            return quotedString(value, ctx);
        }
    }
    const str = value.replace(/\n+/g, `$&\n${indent}`);
    // Verify that output will be parsed as a string, as e.g. plain numbers and
    // booleans get parsed with those types in v1.2 (e.g. '42', 'true' & '0.9e-3'),
    // and others in v1.1.
    if (actualString) {
        const test = (tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
            return quotedString(value, ctx);
    }
    return implicitKey
        ? str
        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
}
function stringifyString(item, ctx, onComment, onChompKeep) {
    const { implicitKey, inFlow } = ctx;
    const ss = typeof item.value === 'string'
        ? item
        : Object.assign({}, item, { value: String(item.value) });
    let { type } = item;
    if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        // force double quotes on control characters & unpaired surrogates
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
            type = Scalar.Scalar.QUOTE_DOUBLE;
    }
    const _stringify = (_type) => {
        switch (_type) {
            case Scalar.Scalar.BLOCK_FOLDED:
            case Scalar.Scalar.BLOCK_LITERAL:
                return implicitKey || inFlow
                    ? quotedString(ss.value, ctx) // blocks are not valid inside flow containers
                    : blockString(ss, ctx, onComment, onChompKeep);
            case Scalar.Scalar.QUOTE_DOUBLE:
                return doubleQuotedString(ss.value, ctx);
            case Scalar.Scalar.QUOTE_SINGLE:
                return singleQuotedString(ss.value, ctx);
            case Scalar.Scalar.PLAIN:
                return plainString(ss, ctx, onComment, onChompKeep);
            default:
                return null;
        }
    };
    let res = _stringify(type);
    if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = (implicitKey && defaultKeyType) || defaultStringType;
        res = _stringify(t);
        if (res === null)
            throw new Error(`Unsupported default string type ${t}`);
    }
    return res;
}

exports.stringifyString = stringifyString;


/***/ }),

/***/ 204:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove node');
/**
 * Apply a visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
function visit(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        visit_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current node */
visit.SKIP = SKIP;
/** Remove the current node */
visit.REMOVE = REMOVE;
function visit_(key, node, visitor, path) {
    const ctrl = callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (identity.isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = visit_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (identity.isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = visit_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = visit_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
/**
 * Apply an async visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `Promise`: Must resolve to one of the following values
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
async function visitAsync(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        await visitAsync_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visitAsync.BREAK = BREAK;
/** Do not visit the children of the current node */
visitAsync.SKIP = SKIP;
/** Remove the current node */
visitAsync.REMOVE = REMOVE;
async function visitAsync_(key, node, visitor, path) {
    const ctrl = await callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visitAsync_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (identity.isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = await visitAsync_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (identity.isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = await visitAsync_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = await visitAsync_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
function initVisitor(visitor) {
    if (typeof visitor === 'object' &&
        (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
            Alias: visitor.Node,
            Map: visitor.Node,
            Scalar: visitor.Node,
            Seq: visitor.Node
        }, visitor.Value && {
            Map: visitor.Value,
            Scalar: visitor.Value,
            Seq: visitor.Value
        }, visitor.Collection && {
            Map: visitor.Collection,
            Seq: visitor.Collection
        }, visitor);
    }
    return visitor;
}
function callVisitor(key, node, visitor, path) {
    if (typeof visitor === 'function')
        return visitor(key, node, path);
    if (identity.isMap(node))
        return visitor.Map?.(key, node, path);
    if (identity.isSeq(node))
        return visitor.Seq?.(key, node, path);
    if (identity.isPair(node))
        return visitor.Pair?.(key, node, path);
    if (identity.isScalar(node))
        return visitor.Scalar?.(key, node, path);
    if (identity.isAlias(node))
        return visitor.Alias?.(key, node, path);
    return undefined;
}
function replaceNode(key, path, node) {
    const parent = path[path.length - 1];
    if (identity.isCollection(parent)) {
        parent.items[key] = node;
    }
    else if (identity.isPair(parent)) {
        if (key === 'key')
            parent.key = node;
        else
            parent.value = node;
    }
    else if (identity.isDocument(parent)) {
        parent.contents = node;
    }
    else {
        const pt = identity.isAlias(parent) ? 'alias' : 'scalar';
        throw new Error(`Cannot replace node with ${pt} parent`);
    }
}

exports.visit = visit;
exports.visitAsync = visitAsync;


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  re: () => (/* reexport */ DEFAULT_COMPARE_OPTIONS),
  lp: () => (/* reexport */ DEFAULT_OPTIONS),
  dz: () => (/* reexport */ errors_InputError),
  fG: () => (/* reexport */ PRESETS),
  Xn: () => (/* reexport */ RunWriter),
  aD: () => (/* reexport */ aggregateScored),
  H5: () => (/* reexport */ applyGates),
  h6: () => (/* reexport */ registry_buildMetricTable),
  K1: () => (/* reexport */ checkRunFile),
  qB: () => (/* reexport */ compareRuns),
  hM: () => (/* reexport */ computeAggregate),
  DA: () => (/* reexport */ defaultGateConfig),
  qY: () => (/* reexport */ deferRunStream),
  tf: () => (/* reexport */ formatFinding),
  ID: () => (/* reexport */ goldenViewOf),
  _f: () => (/* reexport */ openRunStream),
  t0: () => (/* reexport */ parseGateConfig),
  R0: () => (/* reexport */ parseGolden),
  ly: () => (/* reexport */ parseGoldenJsonl),
  wm: () => (/* reexport */ parseGoldenYaml),
  so: () => (/* reexport */ readGoldenFile),
  rU: () => (/* reexport */ readRunDatabase),
  Ay: () => (/* reexport */ renderReportMarkdown),
  w3: () => (/* reexport */ runFromTrec),
  I6: () => (/* reexport */ scoreRun),
  f5: () => (/* reexport */ settingsOf),
  _Y: () => (/* reexport */ stableJson)
});

;// CONCATENATED MODULE: ./src/inputText.ts
/**
 * Text from an input made safe to print: on one line, with what it holds shown (oneLine, valueText), and never
 * read by the Actions runner as a workflow command (inertLines). Every message and log line quoting an input goes
 * through here; the Markdown escaping is render/escape.ts.
 */
/**
 * Characters that would break a one-line message or change how it reads: C0 and C1 controls (newlines and escapes
 * included), DEL, the Unicode line and paragraph separators, every default-ignorable code point (the bidi and
 * zero-width formatting characters, tag characters, Hangul fillers: what renders as nothing), and lone surrogates.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u180e\u2028\u2029\p{Default_Ignorable_Code_Point}\ud800-\udfff]/gu;
/** `\u001b`, or `\u{e0041}` past the Basic Multilingual Plane. */
function codePointEscape(c) {
    const cp = c.codePointAt(0);
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}
const SHORT_ESCAPES = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/**
 * Text that came from an input (an id, a key, a value), for a message: it stays on one line and shows what it
 * holds, each character of UNPRINTABLE written as an escape (`\n`, `\u001b`), and so it cannot start a line the
 * Actions runner reads as a workflow command.
 */
function inputText_oneLine(text) {
    return String(text).replace(UNPRINTABLE, (c) => SHORT_ESCAPES[c] ?? codePointEscape(c));
}
/**
 * Output text that the Actions runner cannot read as a workflow command: it reads a line that starts with `::`
 * (after white space; a line ends at `\n` or `\r`) as one, and the older `##[command]` anywhere in a line. Such a
 * line gets a space after its first colon, and `##[` a space before its bracket; nothing else changes.
 */
function inertLines(text) {
    return text.replace(/(^|[\r\n])(\s*):(?=:)/g, '$1$2: ').replace(/##\[/g, '## [');
}
/**
 * A value from an input, for a message (`got ...`): JSON as written, cut at 80 characters, on one line; a number that
 * JSON cannot hold by name (YAML's `.nan` and `.inf` read as NaN and Infinity, which JSON.stringify calls `null`).
 */
function inputText_valueText(value) {
    if (typeof value === 'number' && !Number.isFinite(value)) {
        return `${Number.isNaN(value) ? '.nan (not a number)' : `${value < 0 ? '-' : ''}.inf (infinite)`}`;
    }
    if (value === undefined)
        return 'nothing';
    let text;
    try {
        text = JSON.stringify(value) ?? String(value);
    }
    catch {
        text = String(value);
    }
    return inputText_oneLine(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

;// CONCATENATED MODULE: ./src/errors.ts

/**
 * A mistake in what the user gave us (a file, a flag, a config line). Entries print
 * `message` alone and exit 2; anything else is a bug and keeps its stack trace.
 */
class errors_InputError extends Error {
    name = 'InputError';
    constructor(message) {
        super(oneLineMessage(message));
    }
}
/**
 * A message is one line whatever the ids and values quoted in it hold: every control character is shown escaped
 * (oneLine), except in a command's usage the CLI appends after a line break (`...\nusage: evalverdict ...`).
 */
function oneLineMessage(message) {
    const usage = /(^|\n)usage: evalverdict /.exec(message);
    if (usage === null)
        return inputText_oneLine(message);
    const head = message.slice(0, usage.index);
    return `${inputText_oneLine(head)}${message.slice(usage.index)}`;
}
function isInputError(error) {
    return error instanceof errors_InputError;
}
/**
 * A file that could not be read, as one message: `FILE: cannot read WHAT (no such file)`, or the system's code
 * (EACCES, EISDIR...). An InputError (a FIFO, a file too large) is returned as it is: it already names the file.
 */
function cannotRead(file, error, what) {
    if (error instanceof errors_InputError)
        return error;
    const code = error?.code;
    const reason = code === 'ENOENT' ? 'no such file' : (code ?? String(error));
    return new errors_InputError(`${file}: cannot read${what === undefined ? '' : ` ${what}`} (${reason})`);
}

;// CONCATENATED MODULE: ./src/aggregate/metrics/profiles.ts
/** WFGY reports 0.0 for an empty denominator and gates on it: its metrics under the wfgy profile. */
const wfgyZero = (denominator) => ({
    denominator: `${denominator} (wfgy profile: 0 when there are none)`,
    emptyValue: 0,
});

;// CONCATENATED MODULE: ./src/aggregate/metrics/abstention.ts
/** The abstention family: refusing what should be refused, answering what should be answered. */

const ABSTENTION_METRICS = [
    {
        id: 'refusal_correctness',
        direction: 'higher',
        unit: 'ratio',
        paired: true,
        definition: 'should-refuse queries that refused (abstention accuracy)',
        denominator: 'unanswerable queries whose refusal is known (abstained flag or an answer)',
        perQuery: (r) => (!r.golden.answerable && r.refused !== null ? (r.refused ? 1 : 0) : null),
    },
    {
        id: 'under_refusal_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: 'should-refuse queries that answered (hallucination rate on unanswerable = 1 - refusal_correctness)',
        denominator: 'unanswerable queries whose refusal is known',
        perQuery: (r) => (!r.golden.answerable && r.refused !== null ? (r.refused ? 0 : 1) : null),
        profiles: { wfgy: wfgyZero('unanswerable queries whose refusal is known') },
    },
    {
        id: 'over_refusal_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: 'answerable queries that refused',
        denominator: 'answerable queries whose refusal is known',
        perQuery: (r) => (r.golden.answerable && r.refused !== null ? (r.refused ? 1 : 0) : null),
        profiles: { wfgy: wfgyZero('answerable queries whose refusal is known') },
    },
];
const abstentionFamily = { family: 'abstention', declare: () => ABSTENTION_METRICS };

;// CONCATENATED MODULE: ./src/arrays.ts
/**
 * `list.map(fn)`, always as a packed array of exactly `list.length` elements.
 *
 * Why not `Array.prototype.map`: once V8's optimizing compiler inlines `map`, the arrays it returns are holey, where
 * the builtin's (and JSON.parse's, and push's) are packed. The two kinds have different hidden classes, so every
 * function that reads arrays made both ways (a golden query's lists, made before and after the reader was
 * optimized) deoptimizes with "wrong map" and is compiled again, in each thread (bench/README.md, "What was kept";
 * docs/decisions/0006-packed-arrays.md). `slice` keeps the source's kind and allocates exactly.
 */
function mapPacked(list, fn) {
    const out = list.slice();
    for (let i = 0; i < out.length; i++)
        out[i] = fn(list[i], i);
    return out;
}

;// CONCATENATED MODULE: ./src/aggregate/matching.ts
/**
 * Matching: one relevance model. For one query, every expectation of the golden query becomes an
 * `Expectation` with a grade; a hit (or a cited chunk) is relevant with the highest grade of the
 * expectations it satisfies. Every retrieval metric is a function of that graded vector and of the
 * expectations (see docs/metrics.md, "Matching").
 */

/** QueryChunkMatch as a number (a table column), in order of looseness. */
const QUERY_CHUNK_MATCHES = [
    'exact',
    'fallback_doc_span',
    'fallback_doc',
    'fallback_expected_doc',
];
function normaliseHeading(path) {
    return mapPacked(path, (s) => s.trim().replace(/\s+/g, ' ')).filter((s) => s !== '');
}
function rangesOverlap(a0, a1, b0, b1) {
    return a0 <= b1 && b0 <= a1;
}
function overlapLength(a0, a1, b0, b1) {
    return Math.max(0, Math.min(a1, b1) - Math.max(a0, b0) + 1);
}
const NONE = [];
/** Lists longer than this get a Map as well (see IdLookup). */
const SCAN_MAX = 16;
/**
 * A query's expected ids (or documents) and their expectation indexes, found by comparing a hit's id with each: a
 * query expects a handful, and comparing is cheaper than hashing every hit's chunk_id and doc_id for a Map lookup
 * (a new string's hash reads all of it, and each query built its Maps; bench/README.md, "What was kept").
 * Past SCAN_MAX ids (qrels can judge hundreds), a Map as before.
 */
class IdLookup {
    keys = [];
    values = [];
    map = null;
    /** The value of `key`, or -1. */
    get(key) {
        if (this.map !== null)
            return this.map.get(key) ?? -1;
        const keys = this.keys;
        for (let i = 0; i < keys.length; i++)
            if (keys[i] === key)
                return this.values[i];
        return -1;
    }
    /** Adds `key` (not yet present) with `value`. */
    add(key, value) {
        this.keys.push(key);
        this.values.push(value);
        if (this.map !== null)
            this.map.set(key, value);
        else if (this.keys.length > SCAN_MAX)
            this.map = new Map(this.keys.map((k, i) => [k, this.values[i]]));
    }
}
/**
 * Under a fallback chunk match, the expected chunk ids the reference chunks know, with the document (and spans) a
 * hit of a re-chunked index is matched by; `mode` is the loosest QUERY_CHUNK_MATCHES index they need. Null under
 * exact matching or with nothing to fall back on.
 */
function fallbackExpectations(chunkIds, options, byId) {
    if (options.chunkMatch === 'exact' || !options.referenceChunks || chunkIds.length === 0)
        return null;
    const ids = [];
    let mode = 0;
    for (const id of chunkIds) {
        const ref = options.referenceChunks.get(id);
        if (!ref)
            continue; // in no table and no expected document to stand for it: exact only
        const spans = options.chunkMatch === 'fallback_doc' ? [] : ref.spans;
        ids.push({ index: byId.get(id), docId: ref.docId, spans });
        mode = Math.max(mode, spans.length > 0 ? 1 : 2);
    }
    return { ids, mode };
}
/**
 * A re-chunk: expected chunk ids that no chunks table holds (so no hit can carry them, and their documents are
 * unknown) are replaced by the query's expected_doc_ids that no other expected chunk belongs to, each one
 * expectation met by any hit of that document (kebab's doc_id criterion, with no span to check). Only when some
 * chunks table exists (else nothing says the chunk is gone), the query has no judgments (qrels judge as they
 * judge), and such a document is left; otherwise the ids stay, matched exactly. `docsForMissing`: those documents.
 */
function rechunked(golden, tables) {
    const chunkIds = golden.expectedChunkIds ?? NONE;
    const docIds = golden.expectedDocIds;
    if (tables === null || chunkIds.length === 0 || docIds === null || docIds.length === 0 || golden.judgments.size > 0)
        return { chunkIds, docsForMissing: null };
    let known = null;
    for (const id of chunkIds)
        if (!tables.has(id))
            known ??= [];
    if (known === null)
        return { chunkIds, docsForMissing: null };
    const knownDocs = new Set();
    for (const id of chunkIds) {
        const chunk = tables.get(id);
        if (chunk) {
            known.push(id);
            knownDocs.add(chunk.docId);
        }
    }
    const docsForMissing = [...new Set(docIds)].filter((d) => !knownDocs.has(d));
    return docsForMissing.length === 0 ? { chunkIds, docsForMissing: null } : { chunkIds: known, docsForMissing };
}
/**
 * The relevant (grade >= minGrade) and judged non-relevant (0 <= grade < minGrade) expectations, and the grades > 0
 * in descending order (nDCG's ideal ranking). Plain loops: a matcher is built for every query of every run.
 */
function gradeCounts(expectations, minGrade) {
    let relevantCount = 0;
    let positive = 0;
    let nonRelevantCount = 0;
    for (const e of expectations) {
        if (e.grade >= minGrade)
            relevantCount++;
        else if (e.grade >= 0)
            nonRelevantCount++;
        if (e.grade > 0)
            positive++;
    }
    // Exactly `positive` long: records keep this list, and an array grown by push keeps spare room.
    const idealGrades = new Array(positive);
    let at = 0;
    for (const e of expectations)
        if (e.grade > 0)
            idealGrades[at++] = e.grade;
    // Descending, by insertion: a query has a handful of grades, and Array.prototype.sort allocates its work
    // arrays for every call (bench/README.md, "What was kept").
    for (let i = 1; i < positive; i++) {
        const g = idealGrades[i];
        let j = i - 1;
        for (; j >= 0 && idealGrades[j] < g; j--)
            idealGrades[j + 1] = idealGrades[j];
        idealGrades[j + 1] = g;
    }
    return { relevantCount, nonRelevantCount, idealGrades };
}
/** The compiled expectations of one query; `match` is called once per hit. */
class QueryMatcher {
    golden;
    options;
    expectations = [];
    /** Expectations with grade >= minGrade: the denominator of recall and MAP. */
    relevantCount;
    /** Expectations with 0 <= grade < minGrade: judged not relevant (bpref's N). */
    nonRelevantCount;
    /** Grades > 0, sorted descending: the ideal ranking of nDCG (trec_eval ndcg_cut ignores -l). */
    idealGrades;
    /** Judged ids (expectations 0 .. judgedCount - 1) and expected chunk ids, to their expectations. */
    byId = new IdLookup();
    judgedCount;
    // Allocated only for a query that has them (a matcher is built for every query of every run).
    byDoc = null;
    supports = NONE;
    lines = null;
    fallbackIds = NONE;
    /** How this query's expected chunks are matched: an index into QUERY_CHUNK_MATCHES. */
    chunkMatch = 0;
    constructor(golden, options) {
        this.golden = golden;
        this.options = options;
        const add = (grade, kind, supportIndex = -1) => {
            this.expectations.push({ grade, kind, supportIndex });
            return this.expectations.length - 1;
        };
        // Chunk ids and judged ids share one namespace so a judged id listed again in expected_chunk_ids is one expectation.
        for (const [id, grade] of golden.judgments)
            this.byId.add(id, add(grade, 'id'));
        this.judgedCount = this.expectations.length;
        const { chunkIds, docsForMissing } = rechunked(golden, options.referenceChunks);
        for (const id of chunkIds) {
            const existing = this.byId.get(id);
            if (existing !== -1)
                this.expectations[existing].grade = Math.max(this.expectations[existing].grade, 1);
            else
                this.byId.add(id, add(1, 'id'));
        }
        // expected_doc_ids define relevance only for queries with no chunk-level expectation (judgments, chunk ids,
        // supports, lines): a document listed beside its expected chunk would otherwise count twice and let any
        // chunk of it pass for the expected one. They always define recall_doc@k (see recallDocAtK).
        const hasChunkLevel = golden.judgments.size > 0 ||
            chunkIds.length > 0 ||
            golden.goldSupports.length > 0 ||
            golden.expectedLines !== null;
        const docIds = docsForMissing ?? (hasChunkLevel ? null : golden.expectedDocIds);
        if (docIds !== null && docIds.length > 0) {
            const byDoc = (this.byDoc = new IdLookup());
            for (const id of docIds) {
                if (byDoc.get(id) === -1)
                    byDoc.add(id, add(1, 'doc'));
            }
        }
        if (golden.goldSupports.length > 0) {
            this.supports = mapPacked(golden.goldSupports, (s, i) => ({
                index: add(1, 'support', i),
                support: s,
                relPath: s.relPath,
                heading: normaliseHeading(s.headingPath),
                snippets: mapPacked(s.snippets, (x) => x.toLowerCase()),
            }));
        }
        if (golden.expectedLines) {
            this.lines = { ...golden.expectedLines, index: add(1, 'lines') };
        }
        const fallback = fallbackExpectations(chunkIds, options, this.byId);
        if (fallback !== null)
            this.fallbackIds = fallback.ids;
        this.chunkMatch = Math.max(docsForMissing !== null ? 3 : 0, fallback?.mode ?? 0);
        const counts = gradeCounts(this.expectations, options.minGrade);
        this.relevantCount = counts.relevantCount;
        this.nonRelevantCount = counts.nonRelevantCount;
        this.idealGrades = counts.idealGrades;
    }
    get hasExpectations() {
        return this.relevantCount > 0;
    }
    /**
     * Indexes of the expectations `c` satisfies. Returns a shared array: copy before keeping it.
     * Judged ids match chunk_id or doc_id (TREC qrels judge documents); expected_chunk_ids match chunk_id.
     */
    match(c, out) {
        if (out.length !== 0)
            out.length = 0; // most hits match nothing: skip the setter, a runtime call
        if (c.chunkId !== null) {
            const i = this.byId.get(c.chunkId);
            if (i !== -1)
                out.push(i);
        }
        if (c.docId !== null) {
            if (this.byDoc !== null) {
                const d = this.byDoc.get(c.docId);
                if (d !== -1)
                    out.push(d);
            }
            if (this.judgedCount > 0 && c.docId !== c.chunkId) {
                // Judged ids are expectations 0 .. judgedCount - 1: an id only listed in expected_chunk_ids matches chunk_id alone.
                const j = this.byId.get(c.docId);
                if (j !== -1 && j < this.judgedCount && !out.includes(j))
                    out.push(j);
            }
        }
        for (const s of this.supports) {
            if (this.matchesSupport(s, c))
                out.push(s.index);
        }
        if (this.lines) {
            const line = c.line;
            if (line &&
                line.path === this.lines.file &&
                rangesOverlap(line.start, line.end, this.lines.start, this.lines.end))
                out.push(this.lines.index);
        }
        for (const f of this.fallbackIds) {
            if (out.includes(f.index) || c.docId !== f.docId)
                continue;
            if (f.spans.length === 0 || this.spanCovers(f.spans, c))
                out.push(f.index);
        }
        return out;
    }
    /**
     * Path, heading, then a snippet in the candidate's lower-cased text. Cost of the snippet search: O(length of the
     * text x snippets) once per distinct (long chunk text, gold support) pair while its lower-cased text stays cached
     * (MatchOptions.lowerTexts; the same chunk cited by many hits, or by a repeated result, gives the same answer), so
     * O(total text of distinct cited chunks x snippets); a text under the cache's 64 Ki units is searched per check.
     */
    matchesSupport(s, c) {
        if (c.docPath !== s.relPath)
            return false;
        const heading = normaliseHeading(c.headingPath);
        if (heading.length < s.heading.length)
            return false;
        for (let i = 0; i < s.heading.length; i++)
            if (heading[i] !== s.heading[i])
                return false;
        if (s.snippets.length === 0)
            return true;
        const chunk = c.chunk;
        const lower = this.options.lowerTexts;
        if (!chunk || !lower) {
            const own = (c.text ?? '').toLowerCase();
            return s.snippets.some((snip) => own.includes(snip));
        }
        const known = lower.answersOf(chunk)?.get(s.support);
        if (known !== undefined)
            return known;
        const text = lower.of(chunk);
        const found = s.snippets.some((snip) => text.includes(snip));
        lower.answersOf(chunk)?.set(s.support, found); // null for a short text, searched per check
        return found;
    }
    /** >= 50% of the expected span covered by the candidate's span (from its chunk record, else its line citation). */
    spanCovers(expected, c) {
        const own = c.chunkId !== null ? this.options.runChunks?.get(c.chunkId)?.spans : undefined;
        const line = own && own.length > 0 ? null : c.line;
        const spans = own && own.length > 0 ? own : line ? [line] : [];
        if (spans.length === 0)
            return true; // span of the hit unknown: the document alone decides
        let expectedLen = 0;
        let covered = 0;
        for (const e of expected) {
            expectedLen += e.end - e.start + 1;
            for (const s of spans)
                covered += overlapLength(e.start, e.end, s.start, s.end);
        }
        return expectedLen > 0 && covered * 2 >= expectedLen;
    }
}
/**
 * A hit as a matching candidate. Only chunk_id and doc_id are read for every hit; the path, heading, text and line
 * are read only for queries with gold supports or line ranges, so they are looked up when asked for (a hit read by
 * the fast reader decodes them from its row then).
 */
class HitCandidate {
    hit;
    chunk;
    chunkId;
    docId;
    constructor(hit, chunk) {
        this.hit = hit;
        this.chunk = chunk;
        this.chunkId = hit.chunkId;
        this.docId = hit.docId ?? chunk?.docId ?? null;
    }
    get docPath() {
        return this.hit.docPath;
    }
    get headingPath() {
        const own = this.hit.headingPath;
        return own.length > 0 ? own : (this.chunk?.headingPath ?? []);
    }
    get text() {
        return this.chunk?.text ?? this.hit.snippet;
    }
    get line() {
        const c = this.hit.citation;
        return c ? { path: c.path, start: c.start, end: c.end } : null;
    }
}
function candidateFromHit(hit, runChunks) {
    return new HitCandidate(hit, hit.chunkId !== null && runChunks ? runChunks.get(hit.chunkId) : undefined);
}

;// CONCATENATED MODULE: ./src/aggregate/pathChunks.ts

/** Up to this many chunks a path's list is scanned: cheaper than building anything. */
const pathChunks_SCAN_MAX = 16;
class PathChunks {
    chunks = [];
    spans = null;
    headings = null;
    /** Appends `chunk` unless it is the last one added (a chunk with two spans of the path is listed once). */
    add(chunk) {
        if (this.chunks[this.chunks.length - 1] !== chunk)
            this.chunks.push(chunk);
    }
    first() {
        return this.chunks[0] ?? null;
    }
    /**
     * The first chunk with a span overlapping lines [start, end]. Cost: O(n) for n <= SCAN_MAX chunks; else
     * O(log^2 s) for s spans, after a one-time O(s log s) build of the SpanTree (O(s log s) memory).
     */
    overlapping(start, end) {
        if (this.chunks.length <= pathChunks_SCAN_MAX) {
            for (const chunk of this.chunks)
                if (chunk.spans.some((s) => s.start <= end && start <= s.end))
                    return chunk;
            return null;
        }
        this.spans ??= new SpanTree(this.chunks);
        const at = this.spans.firstOverlapping(start, end);
        return at === -1 ? null : this.chunks[at];
    }
    /**
     * The first chunk whose normalised heading path starts with the cited one. Cost: O(n x depth) for n <= SCAN_MAX;
     * else O(depth) through a trie built once in O(total heading segments).
     */
    underHeading(cited) {
        const want = normaliseHeading(cited);
        if (this.chunks.length <= pathChunks_SCAN_MAX) {
            for (const chunk of this.chunks) {
                const heading = normaliseHeading(chunk.headingPath);
                if (heading.length >= want.length && want.every((h, i) => heading[i] === h))
                    return chunk;
            }
            return null;
        }
        this.headings ??= headingTrie(this.chunks);
        let node = this.headings;
        for (const h of want) {
            node = node.children.get(h);
            if (node === undefined)
                return null;
        }
        return this.chunks[node.first];
    }
}
function headingTrie(chunks) {
    const root = { first: 0, children: new Map() };
    chunks.forEach((chunk, order) => {
        let node = root;
        for (const h of normaliseHeading(chunk.headingPath)) {
            let child = node.children.get(h);
            if (child === undefined)
                node.children.set(h, (child = { first: order, children: new Map() }));
            node = child;
        }
    });
    return root;
}
/**
 * Every span of a path's chunks, for "the first chunk (smallest list order) with a span overlapping [a, b]": a merge
 * sort tree. Spans sorted by start; level L cuts that order into blocks of 2^L, each block sorted by end descending
 * with the running minimum of the chunk order. The spans starting at or before b are a prefix of the start order,
 * made of at most log2(s) + 1 blocks; in each, those ending at or after a are a prefix found by binary search, whose
 * minimum order is read off. Build O(s log s) time and memory; a query O(log^2 s).
 */
class SpanTree {
    starts;
    /** Per level: ends (descending within each block) and the running minimum of order within each block. */
    ends = [];
    minOrder = [];
    constructor(chunks) {
        const spans = [];
        chunks.forEach((chunk, order) => {
            // NaN overlaps nothing (and would break the sort).
            for (const s of chunk.spans)
                if (s.start === s.start && s.end === s.end)
                    spans.push({ start: s.start, end: s.end, order });
        });
        spans.sort((x, y) => x.start - y.start);
        const n = spans.length;
        this.starts = Float64Array.from(spans, (s) => s.start);
        let ends = Float64Array.from(spans, (s) => s.end);
        let orders = Int32Array.from(spans, (s) => s.order);
        for (let size = 1;; size *= 2) {
            this.ends.push(ends);
            this.minOrder.push(runningMin(orders, size));
            if (size >= n)
                break;
            [ends, orders] = mergeLevel(ends, orders, size);
        }
    }
    /** The smallest order of a span overlapping [a, b], or -1. */
    firstOverlapping(a, b) {
        // k: how many spans start at or before b.
        let lo = 0;
        let hi = this.starts.length;
        while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (this.starts[mid] <= b)
                lo = mid + 1;
            else
                hi = mid;
        }
        const k = lo;
        let best = -1;
        let pos = 0;
        for (let level = this.ends.length - 1; level >= 0; level--) {
            const size = 2 ** level;
            if (pos + size > k)
                continue;
            const ends = this.ends[level];
            // Ends descend within the block [pos, pos + size): count those >= a.
            let l = pos;
            let h = pos + size;
            while (l < h) {
                const mid = (l + h) >>> 1;
                if (ends[mid] >= a)
                    l = mid + 1;
                else
                    h = mid;
            }
            if (l > pos) {
                const order = this.minOrder[level][l - 1];
                if (best === -1 || order < best)
                    best = order;
            }
            pos += size;
        }
        return best;
    }
}
/** Within each block of `size`, the minimum of `orders` from the block's start to each position. */
function runningMin(orders, size) {
    const out = new Int32Array(orders.length);
    for (let i = 0; i < orders.length; i++) {
        out[i] = i % size === 0 ? orders[i] : Math.min(out[i - 1], orders[i]);
    }
    return out;
}
/** The next level: each pair of neighbouring blocks of `size` merged, ends descending. */
function mergeLevel(ends, orders, size) {
    const n = ends.length;
    const outEnds = new Float64Array(n);
    const outOrders = new Int32Array(n);
    for (let from = 0; from < n; from += 2 * size) {
        const mid = Math.min(from + size, n);
        const to = Math.min(from + 2 * size, n);
        let i = from;
        let j = mid;
        for (let o = from; o < to; o++) {
            const takeLeft = j >= to || (i < mid && ends[i] >= ends[j]);
            const src = takeLeft ? i++ : j++;
            outEnds[o] = ends[src];
            outOrders[o] = orders[src];
        }
    }
    return [outEnds, outOrders];
}

;// CONCATENATED MODULE: ./src/aggregate/answerChecks.ts

/** Refusal: the explicit `abstained` flag when present, else `answer.grounded == false`; null when there is no answer at all. */
function isRefusal(result) {
    if (!result)
        return null;
    if (result.abstained !== null)
        return result.abstained;
    if (!result.answer)
        return null;
    return !result.answer.grounded;
}
/** Lower-cased with runs of white space folded: the form every text containment check uses. */
function foldText(text) {
    const lower = text.toLowerCase();
    // The replace only when it changes something (white space other than a lone space): it copies the text even
    // when every run is one space already.
    return (FOLDS.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
}
/** White space that foldText's replace changes: any but a space, or two in a row. */
const FOLDS = /[^\S ]|\s\s/;
function containsFolded(haystackFolded, needle) {
    const n = foldText(needle);
    return n !== '' && haystackFolded.includes(n);
}
/** WFGY's phrases of a claim: a letter or digit, then 4 or more letters, digits, hyphens or white space. */
const CLAIM_PHRASES = /[a-z0-9][a-z0-9\-\s]{4,}/g;
/**
 * WFGY example 08's claim containment: some phrase of the lower-cased gold claim (each longest run CLAIM_PHRASES
 * finds, trimmed), 5 or more characters long, is in the lower-cased answer. A claim "X is a constrained mapping."
 * has one phrase, "x is a constrained mapping"; "Paris, the capital" has "paris" and "the capital".
 */
function claimPhraseFound(goldClaim, answer) {
    if (goldClaim === '')
        return false;
    const text = answer.toLowerCase();
    for (const m of goldClaim.toLowerCase().matchAll(CLAIM_PHRASES)) {
        const phrase = m[0].trim();
        if (phrase.length >= 5 && text.includes(phrase))
            return true;
    }
    return false;
}
/**
 * Per-run lookups for resolving citations. Building costs O(C + S) for C chunks and S spans (each chunk listed
 * under its paths); a path's span and heading structures are built the first time a citation names it
 * (PathChunks), so a run whose answers cite by chunk_id pays nothing more.
 */
class CitationIndex {
    chunks;
    documents;
    byPath = new Map();
    constructor(chunks, documents) {
        this.chunks = chunks;
        this.documents = documents;
        if (!chunks)
            return;
        for (const chunk of chunks.values()) {
            const docPath = documents?.get(chunk.docId)?.workspacePath;
            if (docPath)
                this.listUnder(docPath, chunk);
            for (const s of chunk.spans)
                if (s.path && s.path !== docPath)
                    this.listUnder(s.path, chunk);
        }
    }
    /** Lists `chunk` under `path` once (two spans of one path list it once: the last one listed is this chunk). */
    listUnder(path, chunk) {
        let list = this.byPath.get(path);
        if (!list)
            this.byPath.set(path, (list = new PathChunks()));
        list.add(chunk);
    }
    /**
     * foldText of a chunk's text, for the snippet check: each chunk folded once while its fold stays in the cache
     * (FoldedTexts), and only chunks a hit's snippet is checked against are read and folded at all.
     */
    folded = new FoldedTexts();
    docPathOf(chunk) {
        return this.documents?.get(chunk.docId)?.workspacePath ?? chunk.spans.find((s) => s.path)?.path ?? null;
    }
    /**
     * The chunk a citation points at: by chunk_id, else by path + overlapping line span, else (a 001 reference
     * without lines) by path + a chunk whose heading path starts with the cited one, else (kebab's PDF-page and
     * code-symbol citations, which name no lines) by path alone: the first chunk of that document. Where several
     * chunks qualify, the first in the chunks table's order. Cost: O(1) by id; O(log^2 n) by lines and O(depth) by
     * heading, for n chunks of the path (after PathChunks' one-time build).
     */
    chunkFor(c) {
        if (!this.chunks)
            return null;
        if (c.chunkId !== null) {
            const chunk = this.chunks.get(c.chunkId);
            if (chunk)
                return chunk;
        }
        if (c.path === null)
            return null;
        const list = this.byPath.get(c.path);
        if (list === undefined)
            return null;
        if (c.start !== null)
            return list.overlapping(c.start, c.end ?? c.start);
        if (c.headingPath !== undefined && c.headingPath.length > 0)
            return list.underHeading(c.headingPath);
        // No line at all (an end without a start names a broken span, not a document).
        return c.end === null ? list.first() : null;
    }
    /**
     * Does the citation resolve to a real chunk? With a chunks table: by chunk_id or path + span. Without one:
     * to a chunk_id or path that some hit of the same query carries.
     */
    resolves(c, hits) {
        if (this.chunks)
            return this.chunkFor(c) !== null;
        return ((c.chunkId !== null && hits.withChunkId(c.chunkId) !== undefined) || (c.path !== null && hits.namePath(c.path)));
    }
    /** The citation as a matching candidate, so cited chunks are judged by the same relevance model as hits. */
    candidateFor(c, hits) {
        // The hit of the cited chunk_id; one of a chunk found by path would go unread: the chunk and the cited path
        // answer everything first.
        const hit = c.chunkId !== null ? hits.withChunkId(c.chunkId) : undefined;
        return new CitedCandidate(c, this.chunkFor(c), hit, this);
    }
}
/** Hits up to this many are searched one by one; more get a Map and a Set (QueryHits). */
const HITS_SCANNED = 16;
/**
 * One query's hits as its citations look them up: the first hit of a chunk_id, and whether some hit names a path
 * (doc_path or line citation). A query's few hits are searched in turn; past HITS_SCANNED, a Map and a Set are built
 * on the first look-up, so c citations against h hits cost O(h + c), not O(h x c).
 */
class QueryHits {
    hits;
    byChunkId = null;
    paths = null;
    constructor(hits) {
        this.hits = hits;
    }
    withChunkId(chunkId) {
        if (this.hits.length <= HITS_SCANNED)
            return this.hits.find((h) => h.chunkId === chunkId);
        if (this.byChunkId === null) {
            this.byChunkId = new Map();
            for (const h of this.hits)
                if (h.chunkId !== null && !this.byChunkId.has(h.chunkId))
                    this.byChunkId.set(h.chunkId, h);
        }
        return this.byChunkId.get(chunkId);
    }
    namePath(path) {
        if (this.hits.length <= HITS_SCANNED)
            return this.hits.some((h) => h.docPath === path || h.citation?.path === path);
        if (this.paths === null) {
            this.paths = new Set();
            for (const h of this.hits) {
                if (h.docPath !== null)
                    this.paths.add(h.docPath);
                const cited = h.citation?.path;
                if (cited !== undefined)
                    this.paths.add(cited);
            }
        }
        return this.paths.has(path);
    }
}
/** At most this many UTF-16 units of folded chunk text are kept (one longer text is kept alone). */
const FOLD_CACHE_UNITS = 32 << 20;
/** Texts shorter than this are folded each time they are checked, never cached. */
const FOLD_CACHE_MIN_UNITS = 64 << 10;
/**
 * Folded chunk texts of FOLD_CACHE_MIN_UNITS or more, the first folded dropped first once they hold more than FOLD_CACHE_UNITS (a larger one is
 * kept alone). A chunk cited by many hits is folded once, not once a hit (bench/README.md, "What was kept");
 * memory stays within the cap or the largest value. Cost of `of`: O(1) on a hit, O(length) to fold on a miss.
 */
class FoldedTexts {
    fold;
    cache = new Map();
    /** Per cached text, answers computed from it (answersOf): dropped with the text. */
    answers = new Map();
    units = 0;
    /** `fold`: foldText by default; matching's gold-support check keeps lower-cased texts the same way. */
    constructor(fold = foldText) {
        this.fold = fold;
    }
    of(chunk) {
        // Looked up before `text` is read: a long text is read from the database on each read (readChunks).
        const cached = this.cache.get(chunk);
        if (cached !== undefined)
            return cached;
        const text = chunk.text;
        // A short text is folded each time, as cheap as a look-up: the cache holds no copy of a normal run's chunks.
        if (text.length < FOLD_CACHE_MIN_UNITS)
            return this.fold(text);
        const folded = this.fold(text);
        for (const [old, text] of this.cache) {
            if (this.units + folded.length <= FOLD_CACHE_UNITS)
                break;
            this.cache.delete(old);
            this.answers.delete(old);
            this.units -= text.length;
        }
        this.cache.set(chunk, folded);
        this.units += folded.length;
        return folded;
    }
    /**
     * Answers a caller computed from the cached fold of `chunk`, by a key of its own (a gold support), so a long text
     * is scanned once per key while its fold stays cached; null for a text not cached (short: a scan is cheap).
     */
    answersOf(chunk) {
        if (!this.cache.has(chunk))
            return null;
        let answers = this.answers.get(chunk);
        if (answers === undefined)
            this.answers.set(chunk, (answers = new Map()));
        return answers;
    }
}
/**
 * A cited chunk as a matching candidate. Its ids are read for every citation; its heading, text and line only for
 * queries with gold supports or line ranges, so they are looked up when asked for (a hit read by the fast reader decodes its
 * heading from its row then).
 */
class CitedCandidate {
    c;
    chunk;
    hit;
    chunkId;
    docId;
    docPath;
    constructor(c, chunk, hit, index) {
        this.c = c;
        this.chunk = chunk;
        this.hit = hit;
        this.chunkId = chunk?.chunkId ?? c.chunkId;
        this.docId = chunk?.docId ?? hit?.docId ?? null;
        this.docPath = c.path ?? (chunk ? index.docPathOf(chunk) : null) ?? hit?.docPath ?? null;
    }
    get line() {
        const c = this.c;
        return c.path !== null && c.start !== null ? { path: c.path, start: c.start, end: c.end ?? c.start } : null;
    }
    get headingPath() {
        const cited = this.c.headingPath;
        if (cited !== undefined && cited.length > 0)
            return cited;
        return this.chunk?.headingPath ?? this.hit?.headingPath ?? [];
    }
    get text() {
        return this.chunk?.text ?? this.hit?.snippet ?? null;
    }
}
/** Where the nearest-rank percentile p of n values sits in their ascending order. */
function nearestRankIndex(n, p) {
    return Math.min(Math.max(0, Math.ceil((p / 100) * n) - 1), n - 1);
}
/** Nearest-rank percentile (the smallest value with at least p% of values at or below it); null for no values. */
function nearestRankPercentile(sortedAscending, p) {
    const n = sortedAscending.length;
    return n === 0 ? null : sortedAscending[nearestRankIndex(n, p)];
}
/**
 * The same percentile of values in any order, found by selection (O(n)) instead of a sort; reorders `values`.
 * Breakdowns take several percentiles of many groups, where sorting each group was most of their time.
 */
function nearestRankPercentileOf(values, p) {
    const n = values.length;
    return n === 0 ? null : kthSmallest(values, nearestRankIndex(n, p));
}
/**
 * The values counted by value when every one is a whole number and they span at most 65,536 (latencies in ms, token
 * counts): then percentiles are read off the counts (percentileOfCounts) instead of selected, and one counting
 * serves p50, p95 and any other. Null otherwise (a fraction; -0, which selection could return as itself).
 */
function wholeNumberCounts(values) {
    if (values.length === 0)
        return null;
    const range = wholeNumberRange([values]);
    if (range === null)
        return null;
    const counts = new Int32Array(range.span);
    for (let i = 0; i < values.length; i++)
        counts[values[i] - range.min]++;
    return { min: range.min, counts };
}
/**
 * wholeNumberCounts' rule over the values of `parts` (NaN: no value): their smallest and how many whole numbers
 * from it to their largest (`span`), when every one is a whole number, not -0, and span is at most 65,536; null
 * otherwise. Without values: min 0, span 1.
 */
function wholeNumberRange(parts) {
    let min = Infinity;
    let max = -Infinity;
    for (const part of parts) {
        for (let i = 0; i < part.length; i++) {
            const v = part[i];
            if (v !== v)
                continue;
            if (!Number.isInteger(v) || (v === 0 && 1 / v < 0))
                return null;
            if (v < min)
                min = v;
            if (v > max)
                max = v;
        }
    }
    if (min === Infinity)
        return { min: 0, span: 1 };
    return max - min >= 1 << 16 ? null : { min, span: max - min + 1 };
}
/** nearestRankPercentileOf for values counted by wholeNumberCounts (`n` of them): the same value. */
function percentileOfCounts(counted, n, p) {
    const rank = nearestRankIndex(n, p); // the value with `rank` values before it in ascending order
    const { min, counts } = counted;
    let seen = 0;
    for (let b = 0; b < counts.length; b++) {
        seen += counts[b];
        if (seen > rank)
            return min + b;
    }
    throw new Error('percentileOfCounts: fewer values than counted');
}
/** The k-th smallest (0-based) of `a` by quickselect with a median-of-three pivot: deterministic, in place. */
function kthSmallest(a, k) {
    let lo = 0;
    let hi = a.length - 1;
    while (hi > lo) {
        const mid = (lo + hi) >>> 1;
        // Order a[lo], a[mid], a[hi]; the median moves to mid and is the pivot.
        if (a[mid] < a[lo])
            swap(a, mid, lo);
        if (a[hi] < a[lo])
            swap(a, hi, lo);
        if (a[hi] < a[mid])
            swap(a, hi, mid);
        const pivot = a[mid];
        let i = lo;
        let j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                swap(a, i, j);
                i++;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}
function swap(a, i, j) {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
}

;// CONCATENATED MODULE: ./src/aggregate/metrics/types.ts
/** A boolean per-query fact as a 1/0 value; null leaves the query out. */
const bool = (b) => (b === null ? null : b ? 1 : 0);

;// CONCATENATED MODULE: ./src/aggregate/metrics/answers.ts
/**
 * The answers family: what the answer cites and says. WFGY example 08 defines several of these its own way; its
 * definitions are the `wfgy` profile overrides beside them (docs/golden-sets.md, "Metric profiles").
 */



/** Whether WFGY counts a citation list: any list, even `citations: []`, or the refusal. */
const wfgyCitationListed = (r) => (r.result.answer.citationsListed ?? r.result.answer.citations.length > 0) || r.refused === true;
const ANSWER_METRICS = [
    {
        id: 'citation_coverage',
        direction: 'higher',
        unit: 'ratio',
        definition: 'every citation resolves to a real chunk (chunks table: by chunk_id, path + line span, path + heading, or for a citation naming no lines, such as a PDF page or a code symbol, a chunk of its path; without it: a chunk_id or path some hit of the query carries); no citations counts as not covered',
        denominator: 'grounded (non-refusal) answers',
        perQuery: (r) => bool(r.citationsResolve),
    },
    {
        id: 'attribution_hit_rate',
        direction: 'higher',
        unit: 'ratio',
        definition: 'the answer cites at least one relevant chunk (a refusal counts 0)',
        denominator: 'answerable queries with a relevant expectation and an answer object',
        perQuery: (r) => r.golden.answerable && r.hasExpectations && r.result?.answer ? (r.answered && r.citedRelevant ? 1 : 0) : null,
        profiles: {
            // WFGY's citation hit rate (its G4): an answerable question without gold ids counts, as a miss.
            wfgy: {
                ...wfgyZero('answerable queries with an answer object'),
                perQuery: (r) => (r.golden.answerable && r.result?.answer ? (r.answered && r.citedRelevant ? 1 : 0) : null),
            },
        },
    },
    {
        id: 'citation_hit_rate',
        direction: 'higher',
        unit: 'ratio',
        definition: 'the answer has at least one citation that is relevant',
        denominator: 'answerable queries with a relevant expectation that were answered (not refused)',
        perQuery: (r) => (r.golden.answerable && r.hasExpectations && r.answered ? (r.citedRelevant ? 1 : 0) : null),
    },
    {
        id: 'groundedness',
        direction: 'higher',
        unit: 'ratio',
        paired: true,
        definition: "every must_contain string is in the answer and no forbidden string is (exact substrings, as kebab's `contains`)",
        denominator: 'answers with must_contain or forbidden, refusals included, errored and timed-out results not',
        perQuery: (r) => bool(r.groundedText),
    },
    {
        id: 'answer_precision',
        direction: 'higher',
        unit: 'ratio',
        definition: 'the query is answerable and the answer cites a relevant chunk (precision over answered)',
        denominator: 'answered queries (not refused)',
        perQuery: (r) => (r.answered ? (r.golden.answerable && r.citedRelevant ? 1 : 0) : null),
        profiles: { wfgy: wfgyZero('answered queries (not refused)') },
    },
    {
        id: 'claim_containment',
        direction: 'higher',
        unit: 'ratio',
        definition: 'the gold_claim phrase is in the answer (case-insensitive, white space folded; a refusal counts 0)',
        denominator: 'queries with gold_claim',
        perQuery: (r) => bool(r.claimFound),
        profiles: {
            // WFGY's: any phrase of 5+ letters, digits, hyphens and spaces of the claim (claimPhraseFound), over every
            // answerable question, one without a claim counting 0.
            wfgy: {
                ...wfgyZero('answerable queries with an answer object'),
                definition: "a phrase of the gold_claim (a run of 5 or more letters, digits, hyphens and spaces, WFGY's rule) is in the answer, lower-cased (a refusal or no gold_claim counts 0)",
                perQuery: (r) => r.golden.answerable && r.result?.answer
                    ? r.answered && r.golden.goldClaim !== null && claimPhraseFound(r.golden.goldClaim, r.result.answer.text)
                        ? 1
                        : 0
                    : null,
            },
        },
    },
    {
        id: 'citation_schema_compliance',
        direction: 'higher',
        unit: 'ratio',
        definition: 'the answer carries at least one citation or is a refusal',
        denominator: 'queries with an answer object',
        perQuery: (r) => (r.result?.answer ? (r.result.answer.citations.length > 0 || r.refused === true ? 1 : 0) : null),
        profiles: {
            // WFGY's: a citation list, even `citations: []`, or the refusal.
            wfgy: {
                ...wfgyZero('queries with an answer object'),
                definition: 'the answer carries a citation list (an empty one too) or is a refusal',
                perQuery: (r) => (r.result?.answer ? (wfgyCitationListed(r) ? 1 : 0) : null),
            },
        },
    },
    {
        id: 'recency_conflict_correctness',
        direction: 'higher',
        unit: 'ratio',
        definition: 'cite_newer: cites a newer support and no older one; cite_both: cites at least one of each; acknowledge_both: the same, and the result does not say conflict_acknowledged: false',
        denominator: 'queries with recency_conflict_rule',
        perQuery: (r) => bool(r.recencyCorrect),
    },
    {
        id: 'hit_hallucination_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: "hits whose snippet is not found in their chunk's text (white space folded, case-insensitive), or whose chunk is not in `chunks`",
        denominator: 'hits with a snippet, in runs with a chunks table (n counts hits)',
        reduce: {
            quantity: 'hits_snippet_missing',
            value: (r) => r.hitsSnippetMissing,
            by: 'ratio',
            over: { quantity: 'hits_with_snippet', value: (r) => r.hitsWithSnippet },
        },
    },
];
const answersFamily = { family: 'answers', declare: () => ANSWER_METRICS };

;// CONCATENATED MODULE: ./src/aggregate/metrics/indexStats.ts
/** The index family: properties of the run's documents and chunks tables, not of queries (never broken down). */

const chunkTokens = (run) => Float64Array.from([...(run.chunks?.values() ?? [])].map((c) => c.tokenEstimate)).sort();
/** Documents with no row in `chunks`; null without both tables. */
function documentsWithoutChunks(run) {
    if (!run.documents || !run.chunks)
        return null;
    const withChunks = new Set([...run.chunks.values()].map((c) => c.docId));
    return [...run.documents.keys()].filter((d) => !withChunks.has(d)).length;
}
const tableSize = (size) => size === undefined ? { value: null, n: 0 } : { value: size, n: size };
/** One statistic of the sorted chunk token estimates. */
const chunkTokenStat = (id, label, pick) => ({
    id,
    direction: 'neutral',
    unit: 'tokens',
    definition: `${label} chunks.token_estimate`,
    denominator: 'chunks',
    runLevel: (run) => {
        const s = chunkTokens(run);
        return { value: pick(s), n: s.length };
    },
});
const INDEX_METRICS = [
    {
        id: 'documents',
        direction: 'neutral',
        unit: 'count',
        definition: 'rows in `documents`',
        denominator: 'run databases with a documents table',
        runLevel: (run) => tableSize(run.documents?.size),
    },
    {
        id: 'documents_without_chunks',
        direction: 'lower',
        unit: 'count',
        definition: 'documents with no row in `chunks`',
        denominator: 'run databases with documents and chunks tables',
        runLevel: (run) => {
            const without = documentsWithoutChunks(run);
            return without === null ? { value: null, n: 0 } : { value: without, n: run.documents.size };
        },
    },
    {
        id: 'documents_without_chunks_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: "documents with no row in `chunks` / documents (the 001 spec's No Chunks Generated Rate)",
        denominator: 'documents, in run databases with documents and chunks tables',
        runLevel: (run) => {
            const without = documentsWithoutChunks(run);
            if (without === null || run.documents.size === 0)
                return { value: null, n: 0 };
            return { value: without / run.documents.size, n: run.documents.size };
        },
    },
    {
        id: 'chunks_skipped_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: "chunks the indexer skipped (e.g. over the context limit) / chunks it attempted, from `config_snapshot_json.index_stats` (the 001 spec's Chunks Skipped Due to Context)",
        denominator: 'chunks attempted, in runs whose config snapshot has index_stats',
        runLevel: (run) => {
            const stats = run.run.chunkIndexing;
            if (!stats || stats.attempted === 0)
                return { value: null, n: stats?.attempted ?? 0 };
            return { value: stats.skipped / stats.attempted, n: stats.attempted };
        },
    },
    {
        id: 'chunks',
        direction: 'neutral',
        unit: 'count',
        definition: 'rows in `chunks`',
        denominator: 'run databases with a chunks table',
        runLevel: (run) => tableSize(run.chunks?.size),
    },
    chunkTokenStat('chunk_tokens_min', 'smallest', (s) => (s.length ? s[0] : null)),
    chunkTokenStat('chunk_tokens_mean', 'mean', (s) => (s.length ? s.reduce((a, b) => a + b, 0) / s.length : null)),
    chunkTokenStat('chunk_tokens_p95', '95th percentile (nearest rank) of', (s) => nearestRankPercentile(s, 95)),
    chunkTokenStat('chunk_tokens_max', 'largest', (s) => (s.length ? s[s.length - 1] : null)),
];
const indexFamily = { family: 'index', declare: () => INDEX_METRICS };

;// CONCATENATED MODULE: ./src/aggregate/metrics/judge.ts
const score = (dim) => (r) => r.result?.judge?.[dim] ?? null;
/** 1 when the judge and the spot check differ by more than 1 point on a dimension both scored; null: none did. */
function disagreement(r) {
    const j = r.result?.judge;
    if (!j)
        return null;
    const pairs = [
        [j.groundedness, j.spotCheckGroundedness],
        [j.correctness, j.spotCheckCorrectness],
    ];
    const checked = pairs.filter(([a, b]) => a !== null && b !== null);
    if (checked.length === 0)
        return null;
    return checked.some(([a, b]) => Math.abs(a - b) > 1) ? 1 : 0;
}
const dimensionMetrics = (dim) => [
    {
        id: `judge_${dim}_mean`,
        direction: 'higher',
        unit: 'score',
        definition: `mean stored judge ${dim} score (0-5)`,
        denominator: `queries with a judge ${dim} score`,
        perQuery: score(dim),
    },
    {
        id: `judge_${dim}_ge4_rate`,
        direction: 'higher',
        unit: 'ratio',
        definition: `share of judge ${dim} scores >= 4`,
        denominator: `queries with a judge ${dim} score`,
        perQuery: (r) => {
            const v = score(dim)(r);
            return v === null ? null : v >= 4 ? 1 : 0;
        },
    },
];
const JUDGE_METRICS = [
    ...dimensionMetrics('groundedness'),
    ...dimensionMetrics('correctness'),
    {
        id: 'judge_disagreement_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: 'judge and spot check differ by more than 1 point on groundedness or correctness (judge reliability)',
        denominator: 'queries with a spot check',
        perQuery: disagreement,
    },
];
const judgeFamily = { family: 'judge', declare: () => JUDGE_METRICS };

;// CONCATENATED MODULE: ./src/aggregate/metrics/operations.ts
/** An answer object whose text is blank and that is not a refusal: the 001 spec's "returned empty answer". */
function emptyAnswer(r) {
    const answer = r.result?.answer;
    return !!answer && answer.text.trim() === '' && r.refused !== true;
}
const elapsedMs = { quantity: 'elapsed_ms', value: (r) => r.result?.elapsedMs ?? null };
/** A sum over results (tokens, cost) of one per-result quantity. */
const total = (id, unit, definition, denominator, q) => ({
    id,
    direction: 'lower',
    unit,
    definition,
    denominator,
    reduce: { ...q, by: 'sum' },
});
const COUNTS_AND_FAILURES = [
    {
        id: 'total_queries',
        direction: 'neutral',
        unit: 'count',
        definition: 'golden queries scored (pending ones are reported apart)',
        denominator: 'golden queries',
        reduce: { quantity: 'one', value: () => 1, by: 'count' },
    },
    {
        id: 'missing_queries',
        direction: 'lower',
        unit: 'count',
        definition: 'golden queries with no result in the run',
        denominator: 'golden queries',
        reduce: { quantity: 'missing', value: (r) => (r.result ? 0 : 1), by: 'count' },
    },
    {
        id: 'failed_queries',
        direction: 'lower',
        unit: 'count',
        definition: 'results with status error or timeout (without a status: a non-null error), plus missing results',
        denominator: 'golden queries',
        reduce: { quantity: 'failed', value: (r) => (r.result?.status !== 'ok' ? 1 : 0), by: 'count' },
    },
    {
        id: 'error_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: "failed, timed out or returned empty (the 001 spec's Error Rate): status error (without a status: a non-null error, even an empty one) or timeout, or an empty answer (as empty_answer_rate)",
        denominator: 'queries with a result',
        perQuery: (r) => (r.result ? (r.result.status !== 'ok' || emptyAnswer(r) ? 1 : 0) : null),
    },
    {
        id: 'timeout_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: 'status timeout',
        denominator: 'queries with a result',
        perQuery: (r) => (r.result ? (r.result.status === 'timeout' ? 1 : 0) : null),
    },
    {
        id: 'empty_answer_rate',
        direction: 'lower',
        unit: 'ratio',
        definition: "answer text is blank and the answer is not a refusal (the 001 spec's Empty Response Rate); a failed or timed-out result counts 0",
        denominator: 'queries with an answer object, or whose result failed or timed out',
        perQuery: (r) => {
            if (!r.result)
                return null;
            if (r.result.answer)
                return emptyAnswer(r) ? 1 : 0;
            return r.result.status !== 'ok' ? 0 : null; // a retrieval-only result: no answer was asked for
        },
    },
];
const LATENCY = [
    ['latency_mean_ms', 'mean elapsed_ms', 'mean'],
    [
        'latency_p50_ms',
        'median elapsed_ms (nearest-rank percentile: the smallest value with >= 50% of values at or below it)',
        'p50',
    ],
    ['latency_p95_ms', '95th percentile of elapsed_ms (nearest rank)', 'p95'],
    ['latency_max_ms', 'largest elapsed_ms', 'max'],
].map(([id, definition, by]) => ({
    id,
    direction: 'lower',
    unit: 'ms',
    definition,
    denominator: 'results with elapsed_ms',
    reduce: { ...elapsedMs, by: by },
}));
/** Median and 95th percentile of each stage's timings_ms. */
const stageLatency = (stages) => stages.flatMap((stage) => {
    const stageMs = { quantity: `timings_ms.${stage}`, value: (r) => r.result?.timingsMs[stage] ?? null };
    return [50, 95].map((p) => ({
        id: `${stage}_latency_p${p}_ms`,
        direction: 'lower',
        unit: 'ms',
        definition: `${p === 50 ? 'median' : '95th percentile'} of timings_ms.${stage} (nearest rank)`,
        denominator: `results with timings_ms.${stage}`,
        reduce: { ...stageMs, by: p === 50 ? 'p50' : 'p95' },
    }));
});
const TOTALS = [
    {
        id: 'suite_time_ms',
        direction: 'lower',
        unit: 'ms',
        definition: 'sum of elapsed_ms',
        denominator: 'results with elapsed_ms',
        reduce: { ...elapsedMs, by: 'sum' },
    },
    total('prompt_tokens_total', 'tokens', 'sum of answer.usage.prompt_tokens', 'answers with usage', {
        quantity: 'prompt_tokens',
        value: (r) => r.result?.answer?.promptTokens ?? null,
    }),
    total('completion_tokens_total', 'tokens', 'sum of answer.usage.completion_tokens', 'answers with usage', {
        quantity: 'completion_tokens',
        value: (r) => r.result?.answer?.completionTokens ?? null,
    }),
    // The 001 spec's "Cost: Judge tokens and estimated cost per run".
    total('judge_prompt_tokens_total', 'tokens', 'sum of judge.usage.prompt_tokens (the judge model, not the answering one)', 'results with judge usage', { quantity: 'judge_prompt_tokens', value: (r) => r.result?.judge?.promptTokens ?? null }),
    total('judge_completion_tokens_total', 'tokens', 'sum of judge.usage.completion_tokens', 'results with judge usage', {
        quantity: 'judge_completion_tokens',
        value: (r) => r.result?.judge?.completionTokens ?? null,
    }),
    total('cost_usd_total', 'usd', 'sum of cost_usd', 'results with cost_usd', {
        quantity: 'cost_usd',
        value: (r) => r.result?.costUsd ?? null,
    }),
];
const operationsFamily = {
    family: 'operations',
    declare: ({ stages }) => [...COUNTS_AND_FAILURES, ...LATENCY, ...stageLatency(stages), ...TOTALS],
};

;// CONCATENATED MODULE: ./src/aggregate/rankMetrics.ts
const scratch = [];
// Plain arrays, not typed arrays: a record keeps a handful of short lists, and a typed array costs several times a
// small array of small integers in heap. Lists are gathered in these and copied out at their exact length (an array
// grown by push keeps room for 16 or more).
const listedRanks = [];
const listedRelevant = [];
const listedNovel = [];
const listedGrade = [];
const listedMoreGrades = [];
const hitGrades = [];
const listedOtherJudged = [];
const rankMetrics_NONE = Object.freeze([]);
/**
 * Joins the ranked candidates (sorted by rank) with the query's expectations once; every metric below reads the
 * result. `ranks[i]` is the stored rank of `candidates[i]`.
 */
function relevanceVector(matcher, candidates, ranks) {
    const n = candidates.length;
    const exps = matcher.expectations;
    const minGrade = matcher.options.minGrade;
    const expectationFirstRank = new Array(exps.length).fill(0);
    let firstRelevantRank = 0;
    listedRanks.length = 0;
    listedRelevant.length = 0;
    listedNovel.length = 0;
    listedGrade.length = 0;
    listedMoreGrades.length = 0;
    listedOtherJudged.length = 0;
    for (let i = 0; i < n; i++) {
        const matched = matcher.match(candidates[i], scratch);
        if (matched.length === 0)
            continue;
        const rank = ranks[i];
        let relevant = 0;
        let novel = 0;
        let grade = 0;
        let graded = 0; // expectations of grade > 0 this hit is the first to meet
        let judged = false; // meets an expectation of grade >= 0 (a negative grade: trec_eval's unjudged)
        for (const e of matched) {
            const g = exps[e].grade;
            if (g >= 0)
                judged = true;
            if (g >= minGrade)
                relevant = 1;
            if (expectationFirstRank[e] === 0) {
                expectationFirstRank[e] = rank;
                if (g >= minGrade)
                    novel++;
                if (g > 0)
                    hitGrades[graded++] = g;
                if (g > grade)
                    grade = g;
            }
        }
        if (relevant && firstRelevantRank === 0)
            firstRelevantRank = rank;
        if (relevant || grade > 0) {
            if (graded > 1) {
                // Rare (an expected chunk of a judged document, a support anchoring an expected chunk): every grade but the
                // highest, which novelGrade holds.
                let highestSkipped = false;
                for (let m = 0; m < graded; m++) {
                    if (!highestSkipped && hitGrades[m] === grade)
                        highestSkipped = true;
                    else
                        listedMoreGrades.push(listedRanks.length, hitGrades[m]);
                }
            }
            listedRanks.push(rank);
            listedRelevant.push(relevant);
            listedNovel.push(novel);
            listedGrade.push(grade);
        }
        else if (judged)
            listedOtherJudged.push(rank);
    }
    return vectorOfLists(matcher, expectationFirstRank, firstRelevantRank);
}
/** The vector of the lists relevanceVector gathered, each copied out at its exact length (NONE when empty). */
function vectorOfLists(matcher, expectationFirstRank, firstRelevantRank) {
    const listed = listedRanks.length > 0;
    return {
        ranks: listed ? listedRanks.slice() : rankMetrics_NONE,
        relevant: listed ? listedRelevant.slice() : rankMetrics_NONE,
        novelRelevant: listed ? listedNovel.slice() : rankMetrics_NONE,
        novelGrade: listed ? listedGrade.slice() : rankMetrics_NONE,
        moreNovelGrades: listedMoreGrades.length > 0 ? listedMoreGrades.slice() : rankMetrics_NONE,
        expectationFirstRank,
        otherJudgedRanks: listedOtherJudged.length > 0 ? listedOtherJudged.slice() : rankMetrics_NONE,
        relevantCount: matcher.relevantCount,
        nonRelevantCount: matcher.nonRelevantCount,
        idealGrades: matcher.idealGrades,
        firstRelevantRank,
    };
}
/** hit@k (= trec_eval success_k, Recall_any@k): 1 when a relevant hit has rank <= k. */
function hitAtK(v, k) {
    return v.firstRelevantRank !== 0 && v.firstRelevantRank <= k ? 1 : 0;
}
/** P@k: relevant hits with rank <= k, divided by k even when fewer than k hits came back (trec_eval P_k). */
function precisionAtK(v, k) {
    let count = 0;
    for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++)
        count += v.relevant[i];
    return count / k;
}
/** recall@k: distinct relevant expectations met by hits with rank <= k, over all relevant expectations (trec_eval recall_k). */
function recallAtK(v, k, expectations, minGrade) {
    if (v.relevantCount === 0)
        return null;
    let met = 0;
    for (let e = 0; e < v.expectationFirstRank.length; e++) {
        const r = v.expectationFirstRank[e];
        if (r !== 0 && r <= k && expectations[e].grade >= minGrade)
            met++;
    }
    return met / v.relevantCount;
}
/** Reciprocal rank: 1 / rank of the first relevant hit with rank <= cutoff, else 0. No cutoff = trec_eval recip_rank. */
function reciprocalRank(v, cutoff = Infinity) {
    return v.firstRelevantRank !== 0 && v.firstRelevantRank <= cutoff ? 1 / v.firstRelevantRank : 0;
}
function gainOf(grade, kind) {
    return kind === 'linear' ? grade : 2 ** grade - 1;
}
/**
 * nDCG@k: DCG over DCG of the ideal ranking of all expectation grades cut at k (trec_eval ndcg_cut: gain = grade,
 * ideal from every judged grade, -l not applied). Each expectation gains once, at the rank of the first hit that
 * meets it, so nDCG stays <= 1 when several chunks match one document; a hit that is the first to meet several (an
 * expected chunk of a judged document) gains each of them. The ideal ranking places one expectation per position, so
 * such a ranking can score above it: nDCG is capped at 1 (a ranking at least as good as the ideal). The cap keeps
 * nDCG monotone: meeting more expectations, or meeting them earlier, never lowers it (pushing a hit's second
 * expectation to the next position instead would let an early low grade push a later high one past k). Where each
 * hit first meets at most one expectation (all TREC data), DCG never exceeds the ideal: exactly trec_eval. Null when
 * no expectation has a positive grade.
 */
function ndcgAtK(v, k, kind = 'linear') {
    let ideal = 0;
    for (let i = 0; i < v.idealGrades.length && i < k; i++)
        ideal += gainOf(v.idealGrades[i], kind) / Math.log2(i + 2);
    if (ideal === 0)
        return null;
    let dcg = 0;
    const more = v.moreNovelGrades;
    let m = 0;
    for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++) {
        if (v.novelGrade[i] === 0)
            continue;
        let gain = gainOf(v.novelGrade[i], kind);
        for (; m < more.length && more[m] === i; m += 2)
            gain += gainOf(more[m + 1], kind);
        dcg += gain / Math.log2(v.ranks[i] + 1);
    }
    return Math.min(1, dcg / ideal);
}
/**
 * Average precision (trec_eval map): for each hit that first meets a relevant expectation, precision at its rank
 * (such hits so far / rank) times the relevant expectations it is the first to meet (the recall it adds); summed
 * and divided by the number of relevant expectations (found or not). No cutoff. A hit meets one new expectation on
 * TREC data, where this is exactly trec_eval; one that meets two (an expected chunk of a judged document) adds
 * both, so a ranking that meets every expectation at the top scores 1.
 */
function averagePrecision(v) {
    if (v.relevantCount === 0)
        return null;
    let found = 0;
    let sum = 0;
    for (let i = 0; i < v.ranks.length; i++) {
        const added = v.novelRelevant[i];
        if (added > 0) {
            found++;
            sum += (found / v.ranks[i]) * added;
        }
    }
    return sum / v.relevantCount;
}
/**
 * judged@k (ir_measures' Judged@k): hits with rank <= k whose relevance the golden set states (they meet an
 * expectation of grade >= 0, grade 0 included), divided by k even when fewer hits came back.
 */
function judgedAtK(v, k) {
    let count = 0;
    for (let i = 0; i < v.ranks.length && v.ranks[i] <= k; i++)
        count++;
    for (let i = 0; i < v.otherJudgedRanks.length && v.otherJudgedRanks[i] <= k; i++)
        count++;
    return count / k;
}
/**
 * bpref (trec_eval's, Buckley and Voorhees 2004): for each relevant hit, 1 - min(n, R) / min(N, R), where n is the
 * number of judged non-relevant hits ranked above it, R the relevant expectations and N the judged non-relevant
 * ones (1 when n is 0); summed and divided by R. Unjudged hits are skipped. A hit counts once per relevant
 * expectation it is the first to meet (as MAP), so a second chunk of a relevant document adds nothing; each judged
 * non-relevant hit adds to n. Null when R is 0.
 */
function bpref(v) {
    const R = v.relevantCount;
    if (R === 0)
        return null;
    const cap = Math.min(v.nonRelevantCount, R);
    const other = v.otherJudgedRanks;
    let nonRelevantAbove = 0;
    let o = 0;
    let sum = 0;
    for (let i = 0; i < v.ranks.length; i++) {
        for (; o < other.length && other[o] < v.ranks[i]; o++)
            nonRelevantAbove++;
        if (v.relevant[i] === 0)
            nonRelevantAbove++;
        else if (v.novelRelevant[i] > 0)
            sum += v.novelRelevant[i] * (nonRelevantAbove > 0 ? 1 - Math.min(nonRelevantAbove, R) / cap : 1);
    }
    return sum / R;
}
/**
 * For recall_doc@k: per distinct expected_doc_id (first listing wins), the stored rank of the first hit whose
 * doc_id it is, 0 when no hit carries it. Null when the query lists no expected_doc_ids.
 */
function expectedDocFirstRanks(expectedDocIds, docIds, ranks) {
    if (!expectedDocIds || expectedDocIds.length === 0)
        return null;
    // Lists are short (a few expected documents): arrays beat building Sets per query.
    const distinct = [];
    for (const d of expectedDocIds)
        if (!distinct.includes(d))
            distinct.push(d);
    const first = new Array(distinct.length).fill(0);
    for (let i = 0; i < docIds.length; i++) {
        const d = docIds[i];
        if (d === null)
            continue;
        const e = distinct.indexOf(d);
        if (e >= 0 && first[e] === 0)
            first[e] = ranks[i];
    }
    return first;
}
/** recall_doc@k: distinct expected_doc_ids among the doc_ids of hits with rank <= k, over all distinct expected_doc_ids. */
function recallDocAtK(firstRanks, k) {
    if (firstRanks === null)
        return null;
    let found = 0;
    for (let e = 0; e < firstRanks.length; e++)
        if (firstRanks[e] !== 0 && firstRanks[e] <= k)
            found++;
    return found / firstRanks.length;
}
/**
 * recall_all@k (multi-hop): 1 when every required support group has at least one of its supports met by a
 * relevant hit with rank <= k. Null for queries without required_support_groups.
 */
function recallAllAtK(groups, supportFirstRank, k) {
    if (groups.length === 0)
        return null;
    for (const group of groups) {
        if (!group.some((s) => {
            const r = supportFirstRank(s);
            return r !== 0 && r <= k;
        }))
            return 0;
    }
    return 1;
}

;// CONCATENATED MODULE: ./src/aggregate/metrics/retrieval.ts


const EVALVERDICT_RULES = {
    countsNothingRelevant: false,
    nothingRelevantScore: 0,
    defaultTopK: null,
    ndcgGain: null,
};
/**
 * PaperBot's document evidence bench (its retrieval_benchmark.py and document_evidence_benchmark.py): means over
 * every case; a case's top_k defaults to 5; recall, MRR and nDCG score 1.0 for a case with nothing relevant (its
 * evidence hit 0); nDCG gains 2^grade - 1 with the ideal ranking cut at top_k.
 */
const RETRIEVAL_PROFILES = {
    evalverdict: EVALVERDICT_RULES,
    wfgy: EVALVERDICT_RULES,
    paperbot: { countsNothingRelevant: true, nothingRelevantScore: 1, defaultTopK: 5, ndcgGain: 'exponential' },
};
/** The mean rules of one context: which queries a retrieval mean is over, and the denominators that say so. */
function meanRules(ctx) {
    const { meanOver, profile } = ctx.options;
    const rules = RETRIEVAL_PROFILES[profile ?? 'evalverdict'];
    /** A query with nothing relevant adds 0 rather than being left out: --mean-over trec, trec_c, or the profile. */
    const countsUnjudged = meanOver !== 'default' || rules.countsNothingRelevant;
    const profileCounts = rules.countsNothingRelevant && meanOver === 'default';
    /** What a query with nothing relevant scores where the profile's rule applies (PaperBot's recall, MRR, nDCG). */
    const profileScore = profileCounts ? rules.nothingRelevantScore : 0;
    const defaultTopK = rules.defaultTopK ?? Infinity;
    return {
        /**
         * The trec_eval-overlapping metrics follow --mean-over for missing queries and queries with nothing relevant
         * (those add `unjudged` when they count).
         */
        trecMean: (fn, unjudged = 0) => (r) => {
            if (meanOver === 'trec' && r.result === null)
                return null;
            if (!r.hasExpectations)
                return countsUnjudged ? unjudged : null;
            const v = fn(r);
            return v === null ? (countsUnjudged ? unjudged : null) : v;
        },
        /**
         * nDCG's mean: as trecMean, but a query counts when it has any expectation of grade > 0, whatever --min-grade
         * (nDCG reads grades, not the relevant/not-relevant cut: trec_eval's ndcg_cut ignores -l the same way).
         */
        gradedMean: (fn) => (r) => {
            if (meanOver === 'trec' && r.result === null)
                return null;
            const v = fn(r); // null: no expectation of grade > 0
            return v === null ? (countsUnjudged ? profileScore : null) : v;
        },
        profileScore,
        /** The cutoff of `r` for a metric at k: the query's top_k (or the profile's default) when lower. */
        cut: (r, k) => Math.min(k, r.golden.topK ?? defaultTopK),
        ndcgGain: rules.ndcgGain ?? ctx.options.ndcgGain,
        withExpectations: profileCounts
            ? `every golden query (${profile} profile: one with nothing relevant adds 0)`
            : 'queries with at least one relevant expectation (see --mean-over)',
        withExpectationsScored: profileCounts
            ? `every golden query (${profile} profile: one with nothing relevant scores ${rules.nothingRelevantScore})`
            : 'queries with at least one relevant expectation (see --mean-over)',
        withGrades: profileCounts
            ? `every golden query (${profile} profile: one with no expectation of grade > 0 scores ${rules.nothingRelevantScore})`
            : 'queries with an expectation of grade > 0 (see --mean-over)',
    };
}
/** One declaration per cutoff. */
const perK = (ks, decl) => ks.map(decl);
function rankingMetrics(ctx) {
    const { ks, mrrCutoff, minGrade } = ctx.options;
    const rules = meanRules(ctx);
    const { trecMean, cut, profileScore, withExpectations } = rules;
    const common = { direction: 'higher', unit: 'ratio' };
    return [
        ...perK(ks, (k) => ({
            id: `hit@${k}`,
            ...common,
            paired: true,
            definition: `1 when a relevant hit has rank <= ${k} (Recall_any@${k}, evidence hit rate; = trec_eval success_${k})`,
            denominator: withExpectations,
            perQuery: trecMean((r) => hitAtK(r.vec, cut(r, k))),
        })),
        {
            id: `mrr@${mrrCutoff}`,
            ...common,
            paired: true,
            definition: `1 / rank of the first relevant hit if its rank <= ${mrrCutoff}, else 0`,
            denominator: rules.withExpectationsScored,
            perQuery: trecMean((r) => reciprocalRank(r.vec, cut(r, mrrCutoff)), profileScore),
        },
        {
            id: 'rr',
            ...common,
            paired: true,
            definition: '1 / rank of the first relevant hit, no cutoff, else 0 (= trec_eval recip_rank)',
            denominator: withExpectations,
            perQuery: trecMean((r) => reciprocalRank(r.vec)),
        },
        ...perK(ks, (k) => ({
            id: `P@${k}`,
            ...common,
            definition: `relevant hits with rank <= ${k}, divided by ${k} even when fewer hits came back (= trec_eval P_${k})`,
            denominator: withExpectations,
            perQuery: trecMean((r) => precisionAtK(r.vec, k)),
        })),
        ...perK(ks, (k) => ({
            id: `recall@${k}`,
            ...common,
            paired: true,
            definition: `distinct relevant expectations met by hits with rank <= ${k} / all relevant expectations (= trec_eval recall_${k})`,
            denominator: rules.withExpectationsScored,
            perQuery: trecMean((r) => recallAtK(r.vec, cut(r, k), r.expectations, minGrade), profileScore),
        })),
        ...perK(ks, (k) => ({
            id: `recall_doc@${k}`,
            ...common,
            definition: `distinct expected_doc_ids among the doc_ids of hits with rank <= ${k} / all expected_doc_ids`,
            denominator: 'queries with a non-empty expected_doc_ids',
            perQuery: (r) => recallDocAtK(r.expectedDocFirstRank, k),
        })),
    ];
}
function gradedMetrics(ctx) {
    const { ks, meanOver } = ctx.options;
    const { trecMean, gradedMean, cut, ndcgGain, withExpectations, withGrades } = meanRules(ctx);
    const common = { direction: 'higher', unit: 'ratio' };
    return [
        ...perK(ks, (k) => ({
            id: `nDCG@${k}`,
            ...common,
            paired: true,
            definition: `DCG of hits with rank <= ${k} (gain = ${ndcgGain === 'linear' ? 'grade' : '2^grade - 1'}, discount log2(rank + 1), each expectation gaining once, at the rank of the first hit that meets it) / DCG of the ideal ranking of all expectation grades, at most 1 (= trec_eval ndcg_cut_${k})`,
            denominator: withGrades,
            perQuery: gradedMean((r) => ndcgAtK(r.vec, cut(r, k), ndcgGain)),
        })),
        {
            id: 'MAP',
            ...common,
            definition: 'mean average precision: precision at the rank of each hit that first meets a relevant expectation, times the expectations it first meets, summed, / all relevant expectations (= trec_eval map)',
            denominator: withExpectations,
            perQuery: trecMean((r) => averagePrecision(r.vec)),
        },
        {
            id: 'bpref',
            ...common,
            definition: 'binary preference for incomplete judgments: per relevant hit, 1 - (judged non-relevant hits above it, at most R) / min(judged non-relevant, R), unjudged hits skipped; summed / all relevant expectations R (= trec_eval bpref)',
            denominator: withExpectations,
            perQuery: trecMean((r) => bpref(r.vec)),
        },
        ...perK(ks, (k) => ({
            id: `judged@${k}`,
            direction: 'neutral',
            unit: 'ratio',
            definition: `hits with rank <= ${k} whose relevance the golden set states (a grade, 0 included), divided by ${k} even when fewer hits came back (ir_measures Judged@${k})`,
            denominator: 'queries with graded judgments (see --mean-over for missing ones)',
            perQuery: (r) => r.golden.judgments.size === 0 || (meanOver === 'trec' && r.result === null) ? null : judgedAtK(r.vec, k),
        })),
    ];
}
/** The rank of the first relevant hit meeting gold support `s`, 0 when none does (recall_all@k). */
function supportFirstRank(r, s, minGrade) {
    const e = r.expectations.findIndex((x) => x.kind === 'support' && x.supportIndex === s);
    return e < 0 || r.expectations[e].grade < minGrade ? 0 : r.vec.expectationFirstRank[e];
}
function otherRetrievalMetrics(ctx) {
    const { ks, minGrade } = ctx.options;
    return [
        ...perK(ks, (k) => ({
            id: `recall_all@${k}`,
            direction: 'higher',
            unit: 'ratio',
            definition: `1 when every required support group has a support met by a relevant hit with rank <= ${k} (multi-hop)`,
            denominator: 'queries with required_support_groups',
            perQuery: (r) => recallAllAtK(r.golden.requiredSupportGroups, (s) => supportFirstRank(r, s, minGrade), k),
        })),
        {
            id: 'scope_miss_rate',
            direction: 'lower',
            unit: 'ratio',
            definition: 'no gold support lies under any selected folder',
            denominator: 'queries with gold_supports run with folder_mode on or on_with_fallback',
            perQuery: (r) => bool(r.scopeMiss),
        },
        {
            id: 'citation_accuracy',
            direction: 'higher',
            unit: 'ratio',
            definition: "every hit whose line citation names the expected_lines file cites lines overlapping the expected range (ckv's CitationAccuracy)",
            denominator: 'queries with expected_lines and a relevant hit',
            perQuery: (r) => bool(r.lineCitationsCorrect),
        },
        {
            id: 'empty_result_rate',
            direction: 'lower',
            unit: 'ratio',
            definition: 'zero hits (a query missing from the run counts as empty)',
            denominator: 'all scored queries',
            perQuery: (r) => ((r.result?.hitCount ?? 0) === 0 ? 1 : 0),
        },
    ];
}
const retrievalFamily = {
    family: 'retrieval',
    declare: (ctx) => [...rankingMetrics(ctx), ...gradedMetrics(ctx), ...otherRetrievalMetrics(ctx)],
};

;// CONCATENATED MODULE: ./src/aggregate/metrics/registry.ts






/** The families in the order their metrics are listed. */
const METRIC_FAMILIES = [
    retrievalFamily,
    answersFamily,
    abstentionFamily,
    judgeFamily,
    operationsFamily,
    indexFamily,
];
/** A declaration as the table holds it: its family set and the profile's own definition, if any, in place. */
function registry_resolve({ profiles, ...decl }, family, profile) {
    const override = profiles?.[profile];
    return override ? { ...decl, ...override, family } : { ...decl, family };
}
/** Every metric for these options, in table order; `stages` are the timed stages (a latency pair each). */
function registry_buildMetricTable(options, stages = []) {
    const profile = options.profile ?? 'evalverdict';
    const defs = [];
    for (const { family, declare } of METRIC_FAMILIES) {
        for (const decl of declare({ options, stages }))
            defs.push(registry_resolve(decl, family, profile));
    }
    return defs;
}

;// CONCATENATED MODULE: ./src/aggregate/perQueryValues.ts

/** Mean of the non-null per-query values; null (never 0) when there are none. */
function meanOf(records, perQuery) {
    let sum = 0;
    let n = 0;
    for (const r of records) {
        const v = perQuery(r);
        if (v === null)
            continue;
        sum += v;
        n++;
    }
    return { value: n === 0 ? null : sum / n, n };
}
const perQueryValues_quantityKey = (quantity) => `quantity:${quantity}`;
/** The per-query functions behind `defs`, each under its column key (a quantity shared by several metrics once). */
function perQueryFunctions(defs) {
    const fns = new Map();
    for (const def of defs) {
        if (def.perQuery)
            fns.set(def.id, def.perQuery);
        else if (def.reduce) {
            for (const q of def.reduce.over ? [def.reduce, def.reduce.over] : [def.reduce])
                fns.set(perQueryValues_quantityKey(q.quantity), q.value);
        }
    }
    return fns;
}
/** The sum and count of a column's values (NaN: no value) over the given rows (all when omitted). */
function sumOf(c, indexes) {
    let sum = 0;
    let n = 0;
    // Two loops, so the whole-column one is a plain scan.
    if (indexes === undefined) {
        for (let j = 0; j < c.length; j++) {
            const v = c[j];
            if (v === v) {
                sum += v;
                n++;
            }
        }
        return [sum, n];
    }
    for (let j = 0; j < indexes.length; j++) {
        const v = c[indexes[j]];
        if (v === v) {
            sum += v;
            n++;
        }
    }
    return [sum, n];
}
/** sumOf of four columns over the same rows in one pass, into `out` as [sum, n] of each in order. */
function sumOf4(a, b, c, d, indexes, out) {
    let sa = 0, na = 0, sb = 0, nb = 0, sc = 0, nc = 0, sd = 0, nd = 0;
    for (let j = 0; j < indexes.length; j++) {
        const i = indexes[j];
        const va = a[i], vb = b[i], vc = c[i], vd = d[i];
        if (va === va) {
            sa += va;
            na++;
        }
        if (vb === vb) {
            sb += vb;
            nb++;
        }
        if (vc === vc) {
            sc += vc;
            nc++;
        }
        if (vd === vd) {
            sd += vd;
            nd++;
        }
    }
    out[0] = sa;
    out[1] = na;
    out[2] = sb;
    out[3] = nb;
    out[4] = sc;
    out[5] = nc;
    out[6] = sd;
    out[7] = nd;
}
/** The values of `c` at `indexes` (every row when omitted) that are not NaN, in order, into `out`; their count. */
function pick(c, indexes, out) {
    let n = 0;
    if (indexes === undefined) {
        for (let j = 0; j < c.length; j++) {
            const v = c[j];
            if (v === v)
                out[n++] = v;
        }
    }
    else {
        for (let j = 0; j < indexes.length; j++) {
            const v = c[indexes[j]];
            if (v === v)
                out[n++] = v;
        }
    }
    return n;
}
/**
 * The metrics of one run from its per-query columns: means over the whole run, over breakdown groups and the paired
 * differences of compare all read these, so no per-query metric is computed twice for a record. A column the
 * table lacks (a stage this run's results never timed) is all NaN.
 */
class perQueryValues_PerQueryValues {
    length;
    values = new Map();
    quantities = new Map();
    /** The key of "all rows" in the caches below. */
    all = {};
    constructor(defs, length, columns) {
        this.length = length;
        const column = (key) => {
            const c = columns.get(key);
            if (c !== undefined && c.length !== length)
                throw new Error(`column ${key} has ${c.length} rows, not ${length}`);
            return c ?? new Float64Array(length).fill(NaN);
        };
        for (const def of defs) {
            if (def.perQuery)
                this.values.set(def.id, column(def.id));
            else if (def.reduce) {
                for (const q of def.reduce.over ? [def.reduce, def.reduce.over] : [def.reduce]) {
                    if (!this.quantities.has(q.quantity))
                        this.quantities.set(q.quantity, column(perQueryValues_quantityKey(q.quantity)));
                }
            }
        }
    }
    /** A per-query quantity's column (`elapsed_ms`, `cost_usd`; NaN where the result has none), or null if no metric reads it. */
    quantity(name) {
        return this.quantities.get(name) ?? null;
    }
    /** The column of a per-query metric (NaN where the query is not in its denominator). */
    column(id) {
        const c = this.values.get(id);
        if (!c)
            throw new Error(`no per-query values for ${id}`);
        return c;
    }
    /** Mean over the given record indexes (all when omitted); null when none has a value. */
    mean(id, indexes) {
        const [sum, n] = this.sumOf(this.column(id), indexes);
        return { value: n === 0 ? null : sum / n, n };
    }
    /** Sums and counts summed ahead per index list (sumGroups), per column. */
    summed = new WeakMap();
    sumOf(c, indexes) {
        return (indexes !== undefined ? this.summed.get(indexes)?.get(c) : undefined) ?? sumOf(c, indexes);
    }
    /** The columns sumGroups sums: those of means, and the quantities of sums, counts and ratios. */
    summedColumns(defs) {
        const columns = new Set();
        for (const def of defs) {
            if (def.perQuery)
                columns.add(this.values.get(def.id));
            else if (def.reduce &&
                (def.reduce.over || def.reduce.by === 'sum' || def.reduce.by === 'mean' || def.reduce.by === 'count')) {
                columns.add(this.quantities.get(def.reduce.quantity));
                if (def.reduce.over)
                    columns.add(this.quantities.get(def.reduce.over.quantity));
            }
        }
        return [...columns];
    }
    /**
     * The sums and counts every metric of `defs` needs over each of `groups` (breakdown groups), four columns per
     * pass over a group's rows: a column's NaN checks mispredict, and four sums side by side keep the core busy
     * (bench/README.md, "What was kept"). Each sum adds its values in sumOf's order, so every value is the same.
     */
    sumGroups(defs, groups) {
        const list = this.summedColumns(defs);
        const out = new Float64Array(8);
        for (const indexes of groups) {
            if (this.summed.has(indexes))
                continue; // summed already (compare: the baseline's, ahead of the join)
            const byColumn = new Map();
            this.summed.set(indexes, byColumn);
            let c = 0;
            for (; c + 4 <= list.length; c += 4) {
                sumOf4(list[c], list[c + 1], list[c + 2], list[c + 3], indexes, out);
                for (let k = 0; k < 4; k++)
                    byColumn.set(list[c + k], [out[2 * k], out[2 * k + 1]]);
            }
            for (; c < list.length; c++)
                byColumn.set(list[c], sumOf(list[c], indexes));
        }
    }
    /** Values already evaluated, per index list (the whole run: `all`) and metric id. */
    evaluated = new WeakMap();
    /** A metric over a subset of the records (all when omitted), from the table's columns; each computed once. */
    evaluate(def, run, indexes) {
        if (def.runLevel)
            return def.runLevel(run);
        const key = indexes ?? this.all;
        let byId = this.evaluated.get(key);
        if (!byId)
            this.evaluated.set(key, (byId = new Map()));
        let value = byId.get(def.id);
        if (!value)
            byId.set(def.id, (value = this.compute(def, indexes)));
        return value;
    }
    compute(def, indexes) {
        if (def.emptyValue !== undefined) {
            const value = this.computeValue(def, indexes);
            return value.value === null && value.n === 0 ? { value: def.emptyValue, n: 0 } : value;
        }
        return this.computeValue(def, indexes);
    }
    computeValue(def, indexes) {
        if (def.perQuery)
            return this.mean(def.id, indexes);
        if (def.reduce?.over) {
            const numerator = this.reduced(def.reduce.quantity, 'count', indexes);
            const denominator = this.reduced(def.reduce.over.quantity, 'count', indexes);
            return { value: denominator.value === 0 ? null : numerator.value / denominator.value, n: denominator.value };
        }
        return this.reduced(def.reduce.quantity, def.reduce.by, indexes);
    }
    /**
     * The non-null values of a quantity per index list (the whole run: `all`), shared by p50, p95 and max, with their
     * counts by value once a percentile has asked (null: not whole numbers, see wholeNumberCounts).
     */
    sorted = new WeakMap();
    /**
     * Per quantity: whether every value of the whole run is a whole number, the smallest `min`, within `span` of it
     * (wholeNumberCounts' rule: latencies, token counts); null when not. Then so are those of every row list, and
     * each list's values are counted by value in one pass over its rows, never picked into an array of their own.
     */
    wholeNumbers = new Map();
    /** Per index list (the whole run: `all`) and quantity of whole numbers: its values counted by value. */
    countedValues = new WeakMap();
    reduced(quantity, by, indexes) {
        const c = this.quantities.get(quantity);
        if (by === 'sum' || by === 'mean' || by === 'count') {
            const [sum, n] = this.sumOf(c, indexes);
            return { value: by === 'count' ? sum : n === 0 ? null : by === 'sum' ? sum : sum / n, n };
        }
        const key = indexes ?? this.all;
        let whole = this.wholeNumbers.get(quantity);
        if (whole === undefined)
            this.wholeNumbers.set(quantity, (whole = wholeNumberRange([c])));
        if (whole !== null) {
            let byQuantity = this.countedValues.get(key);
            if (!byQuantity)
                this.countedValues.set(key, (byQuantity = new Map()));
            let counted = byQuantity.get(quantity);
            if (!counted)
                byQuantity.set(quantity, (counted = countWholeNumbers(c, indexes, whole.min, whole.span)));
            const { n } = counted;
            // The values picked and counted by wholeNumberCounts give these same numbers (see percentileOfCounts).
            const value = n === 0 ? null : by === 'max' ? counted.max : percentileOfCounts(counted, n, by === 'p50' ? 50 : 95);
            return { value, n };
        }
        let byQuantity = this.sorted.get(key);
        if (!byQuantity)
            this.sorted.set(key, (byQuantity = new Map()));
        let picks = byQuantity.get(quantity);
        if (!picks) {
            const picked = new Float64Array(indexes ? indexes.length : c.length);
            const n = pick(c, indexes, picked);
            byQuantity.set(quantity, (picks = { values: picked.subarray(0, n) }));
        }
        const { values } = picks;
        let value;
        if (by === 'max') {
            value = values.length === 0 ? null : values[0];
            for (let j = 1; j < values.length; j++)
                if (values[j] > value)
                    value = values[j];
        }
        else {
            const p = by === 'p50' ? 50 : 95;
            if (picks.counted === undefined)
                picks.counted = wholeNumberCounts(values);
            value = picks.counted ? percentileOfCounts(picks.counted, values.length, p) : nearestRankPercentileOf(values, p);
        }
        return { value, n: values.length };
    }
}
/** The values of `c` at `indexes` (every row when omitted), counted by value. */
function countWholeNumbers(c, indexes, min, span) {
    const counts = new Int32Array(span);
    let n = 0;
    let max = -Infinity;
    const rows = indexes?.length ?? c.length;
    for (let j = 0; j < rows; j++) {
        const v = c[indexes === undefined ? j : indexes[j]];
        if (v !== v)
            continue;
        counts[v - min]++;
        n++;
        if (v > max)
            max = v;
    }
    return { min, counts, n, max };
}

;// CONCATENATED MODULE: ./src/suggest.ts
/** "; did you mean `x`?" for a misspelt key or name, or '' when no candidate is close. */
function suggest_suggest(word, candidates) {
    let best = '';
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const d = editDistance(word, candidate);
        if (d < bestDistance) {
            best = candidate;
            bestDistance = d;
        }
    }
    return best && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? `; did you mean \`${best}\`?` : '';
}
/** Levenshtein distance, ignoring case. */
function editDistance(a, b) {
    const prev = new Array(b.length + 1).fill(0).map((_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        let diag = prev[0];
        prev[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const tmp = prev[j];
            prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
            diag = tmp;
        }
    }
    return prev[b.length];
}

;// CONCATENATED MODULE: ./src/types.ts
const noticeOf = () => ({ unknownKeys: new Set(), unmatchableHit: false });
/** What several readings of one run noticed, together (a run's repeats, aggregate's two golden halves). */
function mergedNotice(notices) {
    return {
        unknownKeys: new Set(notices.flatMap((n) => [...n.unknownKeys])),
        unmatchableHit: notices.some((n) => n.unmatchableHit),
    };
}

;// CONCATENATED MODULE: ./src/load/headingPath.ts
/** Heading paths as the run's writers spell them. */
/**
 * A heading path written as one text, `"A > B"` (the 001 core-metrics runner's form): split at each `>`, each
 * heading trimmed, empty ones dropped, so it matches the list `["A", "B"]`.
 */
function splitHeadingPath(text) {
    const out = [];
    for (const part of text.split('>')) {
        const heading = part.trim();
        if (heading !== '')
            out.push(heading);
    }
    return out;
}

;// CONCATENATED MODULE: ./src/load/json.ts

class FieldError extends Error {
    field;
    constructor(field, message) {
        super(message);
        this.field = field;
    }
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function optString(obj, key, path = key) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    if (typeof v === 'string')
        return v;
    if (typeof v === 'number' || typeof v === 'boolean')
        return String(v);
    throw new FieldError(path, `\`${path}\` must be a string, got ${describe(v)}`);
}
function optNumber(obj, key, path = key) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    if (typeof v === 'number' && Number.isFinite(v))
        return v;
    throw new FieldError(path, `\`${path}\` must be a finite number, got ${describe(v)}`);
}
function optBoolean(obj, key, path = key) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    if (typeof v === 'boolean')
        return v;
    throw new FieldError(path, `\`${path}\` must be true or false, got ${describe(v)}`);
}
function optStringArray(obj, key, path = key) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    if (!Array.isArray(v))
        throw new FieldError(path, `\`${path}\` must be a list of strings, got ${describe(v)}`);
    return v.map((item, i) => {
        if (typeof item === 'string')
            return item;
        if (typeof item === 'number')
            return String(item);
        throw new FieldError(`${path}[${i}]`, `\`${path}[${i}]\` must be a string, got ${describe(item)}`);
    });
}
function describe(v) {
    if (v === null)
        return 'null';
    if (v === undefined)
        return 'nothing';
    if (Array.isArray(v))
        return 'a list';
    if (typeof v === 'string')
        return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
    if (typeof v === 'object')
        return 'an object';
    return `${typeof v} ${String(v)}`;
}
/**
 * A JSON column's text parsed, or an InputError naming `where` (a file, table, row and column). A text of
 * JSON_SCAN_FROM_CHARS or more is checked against JSON_VALUE_BOUNDS before it is parsed (`boundsChecked`: the caller
 * has done so already); a shorter one's depth on the value, after.
 */
function parseJsonCell(text, where, boundsChecked = false) {
    if (typeof text !== 'string') {
        throw new errors_InputError(`${where}: expected JSON text, got ${text === null ? 'NULL' : typeof text}`);
    }
    if (!boundsChecked)
        refuseJsonPastBounds(text, JSON_VALUE_BOUNDS, where, 'in one value');
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        throw new errors_InputError(`${where}: malformed JSON (${error.message})`);
    }
    refuseTooDeepValue(text, value, where);
    return value;
}
/**
 * After JSON.parse of `text`: its value refused when it nests deeper than MAX_JSON_DEPTH. A long text's depth was
 * checked on its characters before it was parsed (refuseJsonPastBounds), which for JSON is the value's.
 */
function refuseTooDeepValue(text, value, where) {
    if (text.length < JSON_SCAN_FROM_CHARS && nestedDeeperThan(value, MAX_JSON_DEPTH))
        throw new errors_InputError(`${where}: JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
}
/**
 * How deep a JSON value EvalVerdict reads may nest. JSON.parse reads any depth, but what walks the value afterwards
 * (String() of an array, JSON.stringify) recurses, and 100,000 levels overflow the stack.
 */
const MAX_JSON_DEPTH = 100;
/**
 * What one JSON value EvalVerdict reads may hold: a run database's JSON cell (result_json, config_snapshot_json,
 * aggregate_json, the chunks' JSON columns) and a golden set's JSON Lines line (depth aside). JSON.parse builds all a
 * text holds before anything can be checked, and lists, objects and keys are what it builds dearly; the largest
 * results EvalVerdict scores stay under half of each bound (the figures: docs/run-database.md).
 */
const JSON_VALUE_BOUNDS = {
    depth: MAX_JSON_DEPTH,
    containers: 500_000,
    keys: 500_000,
    commas: 1_000_000,
};
/**
 * Texts shorter than this (in UTF-16 units) are not scanned for JSON_VALUE_BOUNDS: the scan costs more than the fast
 * result reader, and parsing a shorter text costs little whatever it holds (docs/run-database.md).
 */
const JSON_SCAN_FROM_CHARS = 1 << 20;
/**
 * An InputError naming `where` when `text` (of JSON_SCAN_FROM_CHARS or more) passes one of `bounds`, found before it
 * is parsed; `scope` ends the message (`in one value`). Depth in the words of parseJsonCell's check.
 */
function refuseJsonPastBounds(text, bounds, where, scope) {
    if (text.length < JSON_SCAN_FROM_CHARS)
        return;
    const past = jsonTextPast(text, bounds);
    if (past === null)
        return;
    const most = bounds[past].toLocaleString('en-US');
    if (past === 'depth')
        throw new errors_InputError(`${where}: JSON nested more than ${most} levels deep`);
    const what = past === 'containers' ? 'lists and objects' : past === 'keys' ? 'object keys' : 'values';
    throw new errors_InputError(`${where}: JSON holds more than ${most} ${what}, the most EvalVerdict reads ${scope}`);
}
/** The index of the quote that ends the string opened at `open` (the first not escaped by a backslash), or -1. */
function stringEnd(text, open) {
    let end = text.indexOf('"', open + 1);
    while (end !== -1) {
        let slashes = 0;
        while (end - slashes - 1 > open && text.charCodeAt(end - slashes - 1) === 0x5c /* \\ */)
            slashes++;
        if (slashes % 2 === 0)
            return end;
        end = text.indexOf('"', end + 1);
    }
    return -1;
}
/**
 * The first of `bounds` that JSON text passes, read from its characters before it is parsed; null when it passes
 * none. JSON.parse builds everything the text holds before the value can be checked: 32 MiB of `[` is 16 million
 * nested arrays. This scan counts brackets, braces, colons and commas outside strings and stops at the first bound
 * passed. For JSON text its depth is nestedDeeperThan's of the parsed value. Text that is not JSON may be refused
 * here for a bound rather than by JSON.parse; and JSON.parse never builds more than the scan counted, since it
 * stops at its first syntax error and reads strings as the scan does up to there.
 */
function jsonTextPast(text, bounds) {
    let depth = 0;
    let containers = 0;
    let keys = 0;
    let commas = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x22 /* " */) {
            i = stringEnd(text, i);
            if (i === -1)
                return null; // a string without its end: JSON.parse says so
        }
        else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
            if (++depth > bounds.depth)
                return 'depth';
            if (++containers > bounds.containers)
                return 'containers';
        }
        else if (c === 0x5d /* ] */ || c === 0x7d /* } */)
            depth--;
        else if (c === 0x3a /* : */ && ++keys > bounds.keys)
            return 'keys';
        else if (c === 0x2c /* , */ && ++commas > bounds.commas)
            return 'commas';
    }
    return null;
}
/** Whether `value` nests arrays or objects more than `limit` levels deep, without recursion. */
function nestedDeeperThan(value, limit) {
    if (typeof value !== 'object' || value === null)
        return false;
    const stack = [[value, 1]];
    while (stack.length > 0) {
        const [v, depth] = stack.pop();
        if (depth > limit)
            return true;
        for (const child of Array.isArray(v) ? v : Object.values(v)) {
            if (typeof child === 'object' && child !== null)
                stack.push([child, depth + 1]);
        }
    }
    return false;
}

;// CONCATENATED MODULE: ./schemas/result.schema.json
const result_schema_namespaceObject = /*#__PURE__*/JSON.parse('{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"result.schema.json","title":"EvalVerdict result_json","description":"One query\'s result: the `result_json` column of `eval_query_results` (docs/run-database.md). Keys outside this schema are reported by `evalverdict validate` and warned of by compare and aggregate.","type":"object","additionalProperties":false,"properties":{"query_id":{"type":["string","null"],"description":"The query\'s id; the row\'s `query_id` column is the one matched to the golden set."},"query":{"type":["string","null"],"description":"The question as asked.","x-misspellings":["question","text"]},"mode":{"type":["string","null"],"description":"The retrieval mode (bm25, hybrid, ...)."},"hits_top_k":{"type":["array","null"],"items":{"$ref":"#/$defs/hit"},"description":"The retrieved hits, each with a 1-based `rank`.","x-misspellings":["hits","top_k","results","retrieved","retrieval","contexts","documents","chunks"]},"answer":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/answer"}],"description":"The generated answer; null for a retrieval-only run.","x-misspellings":["response","generation","output"]},"elapsed_ms":{"$ref":"#/$defs/measure","x-misspellings":["latency_ms","latency","elapsed","duration_ms","time_ms"]},"error":{"type":["string","null"],"description":"Non-null (even \\"\\") means the query failed, unless `status` says otherwise."},"status":{"enum":["ok","error","timeout",null]},"abstained":{"type":["boolean","null"],"description":"The system refused to answer."},"timings_ms":{"type":["object","null"],"additionalProperties":{"$ref":"#/$defs/measure"},"description":"Milliseconds per stage: {stage: ms}."},"cost_usd":{"$ref":"#/$defs/measure"},"scope":{"type":["object","null"],"additionalProperties":false,"properties":{"folder_mode":{"enum":["off","on","on_with_fallback",null]},"selected_folders":{"type":["array","null"],"items":{"type":"string"}}}},"judge":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/judge"}]},"references":{"type":["array","null"],"items":{"$ref":"#/$defs/reference"},"description":"The 001 runner\'s references beside the answer."},"conflict_acknowledged":{"type":["boolean","null"]}},"$defs":{"measure":{"type":["number","null"],"minimum":0,"description":"A time, cost or count: a number >= 0, or null."},"text":{"type":["string","null"]},"headingPath":{"anyOf":[{"type":"null"},{"type":"string"},{"type":"array","items":{"type":"string"}}],"description":"A list of headings, or one text split at `>`."},"hit":{"type":"object","additionalProperties":false,"required":["rank"],"properties":{"rank":{"type":"integer","minimum":1,"description":"1-based; the ranks of a query are 1..n.","x-misspellings":["position","pos"]},"chunk_id":{"$ref":"#/$defs/text","x-misspellings":["id","chunk"]},"doc_id":{"$ref":"#/$defs/text","x-misspellings":["document_id","doc","document","source_id"]},"doc_path":{"$ref":"#/$defs/text","x-misspellings":["path","source","file"]},"rel_path":{"$ref":"#/$defs/text"},"heading_path":{"$ref":"#/$defs/headingPath"},"snippet":{"$ref":"#/$defs/text","x-misspellings":["text","content","chunk_text"]},"score":{"type":["number","null"]},"citation":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/citation"}]},"chunker_version":{"$ref":"#/$defs/text"},"section_label":{"$ref":"#/$defs/text","description":"The chunk\'s section label (kebab); not scored."},"index_version":{"type":["string","number","null"],"description":"The index the hit came from (kebab); not scored: the run\'s own is read from `config_snapshot_json`."},"embedding_model":{"$ref":"#/$defs/text","description":"The embedding model of the hit\'s vector (kebab); not scored: the run\'s own is read from `config_snapshot_json`."},"indexed_at":{"$ref":"#/$defs/text","description":"When the hit\'s document was indexed (kebab); not scored."},"stale":{"type":["boolean","null"],"description":"The hit\'s document changed since it was indexed (kebab); not scored."},"score_kind":{"$ref":"#/$defs/text","description":"What `score` measures (bm25, cosine, fused, ...; kebab); not scored."}}},"citation":{"type":"object","additionalProperties":false,"properties":{"kind":{"$ref":"#/$defs/text"},"path":{"$ref":"#/$defs/text"},"start":{"type":["number","null"]},"end":{"type":["number","null"]},"start_line":{"type":["number","null"]},"end_line":{"type":["number","null"]},"line_start":{"type":["number","null"]},"line_end":{"type":["number","null"]},"page":{"type":["number","string","null"]},"chunk_id":{"$ref":"#/$defs/text"},"section":{"$ref":"#/$defs/headingPath","description":"The cited section\'s label or heading path (kebab); not read."}}},"answer":{"type":"object","additionalProperties":false,"properties":{"answer":{"$ref":"#/$defs/text","x-misspellings":["text","content","response"]},"citations":{"type":["array","null"],"items":{"$ref":"#/$defs/answerCitation"},"x-misspellings":["sources","cites"]},"references":{"type":["array","null"],"items":{"$ref":"#/$defs/reference"}},"grounded":{"type":["boolean","null"],"description":"false: a refusal."},"refusal_reason":{"$ref":"#/$defs/text"},"conflict_acknowledged":{"type":["boolean","null"]},"usage":{"type":["object","null"],"additionalProperties":false,"properties":{"prompt_tokens":{"$ref":"#/$defs/measure"},"completion_tokens":{"$ref":"#/$defs/measure"},"latency_ms":{"$ref":"#/$defs/measure"}}}}},"answerCitation":{"type":"object","additionalProperties":false,"properties":{"marker":{"$ref":"#/$defs/text"},"chunk_id":{"$ref":"#/$defs/text"},"citation":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/citation"}]}}},"reference":{"type":"object","additionalProperties":false,"properties":{"rel_path":{"$ref":"#/$defs/text"},"path":{"$ref":"#/$defs/text"},"heading_path":{"$ref":"#/$defs/headingPath"},"chunk_id":{"$ref":"#/$defs/text"},"marker":{"$ref":"#/$defs/text"},"start":{"type":["number","null"]},"end":{"type":["number","null"]}}},"score05":{"type":["number","null"],"minimum":0,"maximum":5,"description":"A judge score on the 0-5 scale."},"judge":{"type":"object","additionalProperties":false,"properties":{"groundedness":{"$ref":"#/$defs/score05"},"correctness":{"$ref":"#/$defs/score05"},"unsupported_claims":{"type":["array","null"]},"spot_check":{"type":["object","null"],"additionalProperties":false,"properties":{"groundedness":{"$ref":"#/$defs/score05"},"correctness":{"$ref":"#/$defs/score05"}}},"usage":{"type":["object","null"],"additionalProperties":false,"properties":{"prompt_tokens":{"$ref":"#/$defs/measure"},"completion_tokens":{"$ref":"#/$defs/measure"}}}}}}}');
;// CONCATENATED MODULE: ./src/load/resultKeys.ts
/**
 * The keys the result schema (schemas/result.schema.json) knows, and those a row holds that it does not, at any depth
 * the schema closes (`additionalProperties: false`), named as validate names them (`hits_top_k[].docId`). compare and aggregate take this look at every row they
 * read (load/queryResult.ts, readResultRow), so that a runner's misspelt key or a hit that can match nothing anywhere
 * in a run, not only in its first rows, sends the run to validate's full check (validate/pipelineChecks.ts).
 */

const TOP = result_schema_namespaceObject;
const DEFS = result_schema_namespaceObject.$defs;
/** The keys of a result, of a hit and of a hit's citation: the schema's. */
const RESULT_TOP_KEYS = new Set(Object.keys(TOP.properties));
const RESULT_HIT_KEYS = new Set(Object.keys(DEFS.hit.properties));
const RESULT_CITATION_KEYS = new Set(Object.keys(DEFS.citation.properties));
function resolved(node) {
    let n = node;
    for (let i = 0; n?.$ref !== undefined && i < 8; i++)
        n = DEFS[n.$ref.replace('#/$defs/', '')];
    return n;
}
/** The node an object or a list meets: itself, or the branch of its `anyOf` (beside `null`) that holds such. */
function nodeFor(node, list) {
    const n = resolved(node);
    if (n?.anyOf === undefined)
        return n;
    for (const branch of n.anyOf) {
        const b = resolved(branch);
        if (b !== undefined && (list ? b.items : b.properties) !== undefined)
            return b;
    }
    return undefined;
}
/** Adds to `into` each key of `value` (a parsed result, or a part of it at `node` and `path`) its schema does not know. */
function collectUnknownKeys(value, into, node = TOP, path = '') {
    if (typeof value !== 'object' || value === null)
        return;
    const list = Array.isArray(value);
    const n = nodeFor(node, list);
    if (n === undefined)
        return;
    if (list) {
        if (n.items !== undefined)
            for (const item of value)
                collectUnknownKeys(item, into, n.items, `${path}[]`);
        return;
    }
    const properties = n.properties;
    if (properties === undefined)
        return;
    const record = value;
    for (const key in record) {
        const at = path === '' ? key : `${path}.${key}`;
        const child = Object.hasOwn(properties, key) ? properties[key] : undefined;
        if (child === undefined) {
            if (n.additionalProperties === false)
                into.add(at);
        }
        else
            collectUnknownKeys(record[key], into, child, at);
    }
}
/** A hit's id or path as validate counts one (validate/findings.ts): a non-empty string, or a number. */
function present(value) {
    return (typeof value === 'string' && value !== '') || typeof value === 'number';
}
/** Whether a parsed result has a hit with no chunk_id, doc_id, doc_path or rel_path: one that can match nothing. */
function hasUnmatchableRawHit(value) {
    const hits = value?.hits_top_k;
    if (!Array.isArray(hits))
        return false;
    for (const hit of hits) {
        if (typeof hit !== 'object' || hit === null)
            continue;
        const h = hit;
        if (!present(h.chunk_id) && !present(h.doc_id) && !present(h.doc_path) && !present(h.rel_path))
            return true;
    }
    return false;
}

;// CONCATENATED MODULE: ./src/load/resultJson.ts
/**
 * A fast reader for the common shape of one `result_json` (docs/decisions/0002-result-json-fast-reader.md), since
 * `JSON.parse` building every object and string of a row is the largest cost of reading a run. It validates the text
 * as it goes and reads hits against templates learnt from earlier hits (writers emit every hit in the same shape).
 * Off the happy path it returns null, and the caller reads the row with `JSON.parse` and `parseQueryResult`, which
 * give every error message: this reader never decides an error nor changes a value (test/resultJson.test.ts).
 */


/**
 * A hit read by the scanner: rank, ids, doc_path and chunker version at once; the rest (HitDetail) at once when read
 * token by token, else when first asked for, by running its template's full pattern again at its place in the row
 * (a hit lives while its row is scored, so holding the row costs nothing).
 */
class RowHit {
    rank;
    chunkId;
    docId;
    docPath;
    chunkerVersion;
    detail;
    row;
    at;
    template;
    constructor(rank, chunkId, docId, 
    /** Read at once too: gold-support matching compares it before it reads anything else of the hit. */
    docPath, chunkerVersion, detail, row, at, template) {
        this.rank = rank;
        this.chunkId = chunkId;
        this.docId = docId;
        this.docPath = docPath;
        this.chunkerVersion = chunkerVersion;
        this.detail = detail;
        this.row = row;
        this.at = at;
        this.template = template;
    }
    details() {
        return (this.detail ??= templateDetail(this.template, this.row, this.at));
    }
    get headingPath() {
        const json = this.details().headingJson;
        if (json === null)
            return [];
        const value = JSON.parse(json);
        return typeof value === 'string' ? splitHeadingPath(value) : value;
    }
    get snippet() {
        return this.details().snippet;
    }
    get score() {
        return this.details().score;
    }
    get citation() {
        // Scoring asks every hit until one has a citation: a shape without a usable one need not read the rest.
        if (this.detail === null && !this.template.citationUsable)
            return null;
        const d = this.details();
        if (d.citationPath === null)
            return null;
        return { kind: 'line', path: d.citationPath, start: d.citationStart, end: d.citationEnd };
    }
}
/** A HitDetail of nulls; citationEnd NaN until read (none: the start). */
function emptyDetail() {
    return { headingJson: null, snippet: null, score: null, citationPath: null, citationStart: 0, citationEnd: NaN };
}
/** The HitDetail of a hit that `t.scan` matched at `at` in `row` (so `t.full` matches there too, value for value). */
function templateDetail(t, row, at) {
    t.full.lastIndex = at;
    const m = t.full.exec(row);
    const detail = emptyDetail();
    for (let i = 0; i < t.slots.length; i++) {
        const v = m[i + 1];
        switch (t.slots[i]) {
            case K_HEADING:
                detail.headingJson = v;
                break;
            case K_SNIPPET:
                detail.snippet = v;
                break;
            case K_SCORE:
                detail.score = Number(v);
                break;
            case CITATION_PATH:
                detail.citationPath = v;
                break;
            case CITATION_START:
                detail.citationStart = Number(v);
                break;
            case CITATION_END:
                detail.citationEnd = Number(v);
                break;
            default: // rank, ids, path and version: read at once; kebab's section label and times: never read
        }
    }
    if (!t.citationUsable)
        detail.citationPath = null;
    if (detail.citationEnd !== detail.citationEnd)
        detail.citationEnd = detail.citationStart;
    return detail;
}
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const LOWER_F = 0x66;
/** Thrown inside the scanner to leave the fast path; never escapes `scanResultJson`. */
const BAIL = new Error('not the common shape');
/** Top-level fields whose values parseQueryResult reads; any other key is validated and skipped. */
const READ_TOP_LEVEL = new Set([
    'query',
    'mode',
    'answer',
    'elapsed_ms',
    'error',
    'status',
    'abstained',
    'timings_ms',
    'cost_usd',
    'scope',
    'judge',
    'references',
    'conflict_acknowledged',
]);
// Hit fields as bits (a key given twice is refused: JSON.parse would keep the last, and the slow path decides),
// and as the slots of hit templates, with the citation's three values.
const K_RANK = 1;
const K_CHUNK = 2;
const K_DOC = 4;
const K_PATH = 8;
const K_HEADING = 16;
const K_SNIPPET = 32;
const K_SCORE = 64;
const K_CITATION = 128;
const K_VERSION = 256;
const CITATION_PATH = 512;
const CITATION_START = 1024;
const CITATION_END = 2048;
// kebab's per-hit texts that vary from hit to hit: values in a template (checked, never read), so that its hits
// share a shape; its constant fields (index_version, embedding_model, stale, score_kind) stay literal text.
const K_SECTION_LABEL = 4096;
const K_INDEXED_AT = 8192;
const CITATION_SECTION = 16384;
const UNREAD_TEXT = K_SECTION_LABEL | K_INDEXED_AT | CITATION_SECTION;
const HIT_KEYS = new Map([
    ['rank', K_RANK],
    ['chunk_id', K_CHUNK],
    ['doc_id', K_DOC],
    ['doc_path', K_PATH],
    ['rel_path', K_PATH], // the 001 runner's name for it; a hit with both is left to the slow path (`seen`)
    ['heading_path', K_HEADING],
    ['snippet', K_SNIPPET],
    ['score', K_SCORE],
    ['citation', K_CITATION],
    ['chunker_version', K_VERSION],
    ['section_label', K_SECTION_LABEL],
    ['indexed_at', K_INDEXED_AT],
]);
const CITATION_KEYS = new Map([
    ['path', CITATION_PATH],
    ['start', CITATION_START],
    ['end', CITATION_END],
    ['section', CITATION_SECTION],
]);
// What a template slot accepts (JSON's grammar, without escapes or control characters in strings).
const WS = '[ \\t\\n\\r]*';
const STRING_CHARS = '[^"\\\\\\u0000-\\u001f]*';
const NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
const SLOT_PATTERN = {
    [K_RANK]: '([1-9]\\d*)',
    [K_CHUNK]: `(${STRING_CHARS})`,
    [K_DOC]: `(${STRING_CHARS})`,
    [K_PATH]: `(${STRING_CHARS})`,
    [K_HEADING]: `(\\[${WS}(?:"${STRING_CHARS}"(?:${WS},${WS}"${STRING_CHARS}")*)?${WS}\\]|"${STRING_CHARS}")`,
    [K_SNIPPET]: `(${STRING_CHARS})`,
    [K_SCORE]: `(${NUMBER})`,
    [K_VERSION]: `(${STRING_CHARS})`,
    [CITATION_PATH]: `(${STRING_CHARS})`,
    [CITATION_START]: `(${NUMBER})`,
    [CITATION_END]: `(${NUMBER})`,
    [K_SECTION_LABEL]: `(${STRING_CHARS})`,
    [K_INDEXED_AT]: `(${STRING_CHARS})`,
    [CITATION_SECTION]: `(${STRING_CHARS})`,
};
const STRING_SLOTS = K_CHUNK | K_DOC | K_PATH | K_SNIPPET | K_VERSION | CITATION_PATH | UNREAD_TEXT;
/** Values the scan pattern captures; the others it only checks. */
const READ_AT_ONCE = K_RANK | K_CHUNK | K_DOC | K_PATH | K_VERSION;
/**
 * A number the scan pattern checks but does not read: without an exponent and at most 300 digits before the
 * point, so it is finite (the token-by-token reader, which decides, reads the others).
 */
const FINITE_NUMBER = '-?(?:0|[1-9]\\d{0,299})(?:\\.\\d+)?';
/** Where each value read at once is in a scan match (group i + 1 for slot i; 0: the hit has null there). */
function groupsOf(scanSlots) {
    const at = (slot) => scanSlots.indexOf(slot) + 1;
    return { rank: at(K_RANK), chunk: at(K_CHUNK), doc: at(K_DOC), path: at(K_PATH), version: at(K_VERSION) };
}
/** A slot's pattern in the scan pattern: captured when read at once, else only checked. */
function scanPattern(slot) {
    if (slot & READ_AT_ONCE)
        return SLOT_PATTERN[slot];
    if (slot === K_SCORE || slot === CITATION_START || slot === CITATION_END)
        return `(?:${FINITE_NUMBER})`;
    return `(?:${SLOT_PATTERN[slot].slice(1, -1)})`;
}
/** Hits of many shapes must not compile a regular expression each: past this, hits are read token by token. */
const MAX_TEMPLATES_COMPILED = 256;
/** Templates tried per hit, most recently matched first. */
const MAX_TEMPLATES_TRIED = 8;
function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
class Scanner {
    s = '';
    p = 0;
    /** Set by `stringEnd`: the string just passed has an escape, and then its value (decoded once, by JSON.parse). */
    escaped = false;
    decoded = '';
    /** Whether `stringEnd` refuses control characters (as JSON does); off inside a value JSON.parse reads anyway. */
    checkControl = true;
    /**
     * The first backslash of `s` at or after `backslashFrom` (-1: none), kept between strings: searching the rest of
     * the row for each string cost O(strings x row) (bench/README.md, "What was kept"); kept, O(row) in all.
     */
    backslashAt = -1;
    backslashFrom = -1;
    templates = [];
    compiled = new Map();
    /** Value positions of the hit being read generically: (slot, start, end) triples; start -1 for null. */
    cuts = [];
    /** This row's keys the result schema does not know (outside the members JSON.parse reads: readResultRow). */
    unknownKeys = [];
    /** Those of the hit being read generically. */
    hitUnknownKeys = [];
    ws() {
        const s = this.s;
        let p = this.p;
        for (;;) {
            const c = s.charCodeAt(p);
            if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
                p++;
            else
                break;
        }
        this.p = p;
    }
    /** Skips white space, then requires `code` and moves past it. */
    expect(code) {
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) !== code)
            throw BAIL;
        this.p++;
    }
    /** At an opening quote: moves past the string and returns p; if it has escapes, JSON.parse decodes and checks it. */
    stringEnd() {
        const s = this.s;
        const start = this.p + 1;
        let close = s.indexOf('"', start);
        if (close === -1)
            throw BAIL;
        let i = start;
        if (this.checkControl) {
            while (i < close) {
                const c = s.charCodeAt(i);
                if (c < 0x20)
                    throw BAIL;
                if (c === BACKSLASH)
                    break;
                i++;
            }
        }
        else {
            if (start < this.backslashFrom || (this.backslashAt !== -1 && this.backslashAt < start)) {
                this.backslashAt = s.indexOf('\\', start);
                this.backslashFrom = start;
            }
            const b = this.backslashAt;
            i = b === -1 || b > close ? close : b;
        }
        this.escaped = i < close;
        if (this.escaped) {
            // Find the real end past escaped quotes, then let JSON.parse validate the escapes and control characters.
            for (;;) {
                const c = s.charCodeAt(i);
                if (c !== c)
                    throw BAIL; // NaN: the text ended
                if (c === BACKSLASH)
                    i += 2;
                else if (c === QUOTE)
                    break;
                else
                    i++;
            }
            close = i;
            this.decoded = JSON.parse(s.slice(this.p, close + 1));
        }
        this.p = close + 1;
        return close + 1;
    }
    /** A string's value, decoded; p after it. */
    string() {
        const start = this.p;
        const end = this.stringEnd();
        return this.escaped ? this.decoded : this.s.slice(start + 1, end - 1);
    }
    /** A string that outlives the row (the query, the error): copied, as a V8 substring of 13+ characters is a view. */
    ownString() {
        const start = this.p;
        const end = this.stringEnd();
        if (this.escaped)
            return this.decoded;
        if (end - start - 2 < 13)
            return this.s.slice(start + 1, end - 1);
        return JSON.parse(this.s.slice(start, end));
    }
    /** Validates a number token and moves past it; returns its value as JSON.parse would. */
    number() {
        const s = this.s;
        const start = this.p;
        let p = start;
        let c = s.charCodeAt(p);
        const negative = c === MINUS;
        if (negative)
            c = s.charCodeAt(++p);
        let value = 0;
        let digits = 0;
        if (c === ZERO) {
            c = s.charCodeAt(++p);
            digits = 1;
        }
        else if (c > ZERO && c <= NINE) {
            do {
                value = value * 10 + (c - ZERO);
                digits++;
                c = s.charCodeAt(++p);
            } while (c >= ZERO && c <= NINE);
        }
        else
            throw BAIL;
        let simple = digits <= 15;
        if (c === DOT) {
            simple = false;
            c = s.charCodeAt(++p);
            if (!(c >= ZERO && c <= NINE))
                throw BAIL;
            do
                c = s.charCodeAt(++p);
            while (c >= ZERO && c <= NINE);
        }
        if (c === LOWER_E || c === UPPER_E) {
            simple = false;
            c = s.charCodeAt(++p);
            if (c === PLUS || c === MINUS)
                c = s.charCodeAt(++p);
            if (!(c >= ZERO && c <= NINE))
                throw BAIL;
            do
                c = s.charCodeAt(++p);
            while (c >= ZERO && c <= NINE);
        }
        this.p = p;
        if (simple)
            return negative ? -value : value;
        return Number(s.slice(start, p));
    }
    literal(word) {
        const s = this.s;
        const p = this.p;
        for (let i = 0; i < word.length; i++)
            if (s.charCodeAt(p + i) !== word.charCodeAt(i))
                throw BAIL;
        this.p = p + word.length;
    }
    /** Validates any JSON value and moves past it. */
    skipValue(depth = 0) {
        if (depth > 64)
            throw BAIL; // deep nesting: left to JSON.parse
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        switch (this.s.charCodeAt(this.p)) {
            case QUOTE:
                this.stringEnd();
                return;
            case OPEN_BRACE:
                this.p++;
                if (this.s.charCodeAt(this.p) <= 0x20)
                    this.ws();
                if (this.s.charCodeAt(this.p) === CLOSE_BRACE) {
                    this.p++;
                    return;
                }
                for (;;) {
                    if (this.s.charCodeAt(this.p) <= 0x20)
                        this.ws();
                    if (this.s.charCodeAt(this.p) !== QUOTE)
                        throw BAIL;
                    this.stringEnd();
                    this.expect(COLON);
                    this.skipValue(depth + 1);
                    if (!this.nextMember(CLOSE_BRACE))
                        return;
                }
            case OPEN_BRACKET:
                this.p++;
                if (this.s.charCodeAt(this.p) <= 0x20)
                    this.ws();
                if (this.s.charCodeAt(this.p) === CLOSE_BRACKET) {
                    this.p++;
                    return;
                }
                for (;;) {
                    this.skipValue(depth + 1);
                    if (!this.nextMember(CLOSE_BRACKET))
                        return;
                }
            case LOWER_T:
                this.literal('true');
                return;
            case LOWER_F:
                this.literal('false');
                return;
            case LOWER_N:
                this.literal('null');
                return;
            default:
                this.number();
        }
    }
    /** After a member or element: true at a comma (p after it), false at `close` (p after it). */
    nextMember(close) {
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        const c = this.s.charCodeAt(this.p++);
        if (c === COMMA)
            return true;
        if (c === close)
            return false;
        throw BAIL;
    }
    /** Any JSON value, as JSON.parse gives it (objects and arrays by JSON.parse of their text). */
    value() {
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        const c = this.s.charCodeAt(this.p);
        if (c === QUOTE)
            return this.ownString();
        if (c === OPEN_BRACE || c === OPEN_BRACKET) {
            const start = this.p;
            this.checkControl = false; // JSON.parse below checks the strings
            try {
                this.skipValue();
            }
            finally {
                this.checkControl = true;
            }
            return JSON.parse(this.s.slice(start, this.p));
        }
        if (c === LOWER_T) {
            this.literal('true');
            return true;
        }
        if (c === LOWER_F) {
            this.literal('false');
            return false;
        }
        if (c === LOWER_N) {
            this.literal('null');
            return null;
        }
        return this.number();
    }
    /** At a member's key (after any white space): the key decoded; p after the colon and any white space. */
    key() {
        if (this.s.charCodeAt(this.p) !== QUOTE)
            throw BAIL;
        const key = this.string();
        this.expect(COLON);
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        return key;
    }
    /** A string or null (its token noted as a template value of `slot`). */
    stringOrNull(slot) {
        const c = this.s.charCodeAt(this.p);
        if (c === QUOTE) {
            const at = this.p;
            const value = this.string();
            this.cuts.push(slot, at, this.escaped ? -1 : this.p);
            return value;
        }
        if (c === LOWER_N) {
            this.literal('null');
            this.cuts.push(slot, -1, 0);
            return null;
        }
        throw BAIL;
    }
    /**
     * A value never read, of a key `slot` (0: a key not listed): kebab's varying texts, as a string or null, are
     * template values of their slot; any other value is checked and stays literal text in a template.
     */
    otherValue(slot) {
        const c = this.s.charCodeAt(this.p);
        if (slot & UNREAD_TEXT && (c === QUOTE || c === LOWER_N))
            this.stringOrNull(slot);
        else
            this.skipValue();
    }
    /** A number or null (a finite number: the slow path reports the others), noted as a template value of `slot`. */
    numberOrNull(slot) {
        const at = this.p;
        if (this.s.charCodeAt(at) === LOWER_N) {
            this.literal('null');
            this.cuts.push(slot, -1, 0);
            return null;
        }
        const n = this.number();
        if (n === Infinity || n === -Infinity)
            throw BAIL;
        this.cuts.push(slot, at, this.p);
        return n;
    }
    /** heading_path: null, a list of strings or one `"A > B"` string, returned as its JSON text. */
    headingJson() {
        const c = this.s.charCodeAt(this.p);
        if (c === LOWER_N) {
            this.literal('null');
            this.cuts.push(K_HEADING, -1, 0);
            return null;
        }
        if (c === QUOTE) {
            const start = this.p;
            this.stringEnd();
            // The whole token, quotes included, is the slot (JSON.parse reads it back as the string).
            this.cuts.push(K_HEADING, start, this.escaped ? -1 : this.p);
            return this.s.slice(start, this.p);
        }
        if (c !== OPEN_BRACKET)
            throw BAIL;
        const start = this.p++;
        let escaped = false;
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACKET) {
            this.p++;
        }
        else {
            for (;;) {
                if (this.s.charCodeAt(this.p) <= 0x20)
                    this.ws();
                if (this.s.charCodeAt(this.p) !== QUOTE)
                    throw BAIL;
                this.stringEnd();
                escaped ||= this.escaped;
                if (!this.nextMember(CLOSE_BRACKET))
                    break;
            }
        }
        this.cuts.push(K_HEADING, start, escaped ? -1 : this.p);
        return this.s.slice(start, this.p);
    }
    /** A hit's citation into `detail` as parseLineCitation reads it: path and start, else none; end defaults to start. */
    citation(detail) {
        const c = this.s.charCodeAt(this.p);
        if (c === LOWER_N) {
            this.literal('null');
            return;
        }
        if (c !== OPEN_BRACE)
            throw BAIL;
        this.p++;
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACE) {
            this.p++;
            return;
        }
        let path = null;
        let start = null;
        let end = null;
        let seen = 0;
        for (;;) {
            if (this.s.charCodeAt(this.p) <= 0x20)
                this.ws();
            const key = this.key();
            const id = CITATION_KEYS.get(key) ?? 0;
            if (id === 0 && !RESULT_CITATION_KEYS.has(key))
                this.hitUnknownKeys.push(`hits_top_k[].citation.${key}`);
            switch (id) {
                case CITATION_PATH:
                    path = this.stringOrNull(CITATION_PATH);
                    break;
                case CITATION_START:
                    start = this.numberOrNull(CITATION_START);
                    break;
                case CITATION_END:
                    end = this.numberOrNull(CITATION_END);
                    break;
                default:
                    this.otherValue(id);
            }
            if (seen & id)
                throw BAIL;
            seen |= id;
            if (!this.nextMember(CLOSE_BRACE))
                break;
        }
        if (path === null || start === null)
            return;
        detail.citationPath = path;
        detail.citationStart = start;
        detail.citationEnd = end ?? start;
    }
    /** One hit, its rank not yet checked against the others: by a template when one matches, else token by token. */
    hit() {
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        const templates = this.templates;
        for (let i = 0; i < templates.length; i++) {
            const hit = this.templateHit(templates[i]);
            if (hit !== null) {
                if (i > 0)
                    templates.unshift(templates.splice(i, 1)[0]);
                return hit;
            }
        }
        const start = this.p;
        this.cuts.length = 0;
        const hit = this.genericHit();
        if (this.hitUnknownKeys.length > 0)
            this.unknownKeys.push(...this.hitUnknownKeys);
        this.learnTemplate(start, this.p);
        return hit;
    }
    templateHit(t) {
        const s = this.s;
        const at = this.p;
        t.scan.lastIndex = at;
        const m = t.scan.exec(s);
        if (m === null)
            return null;
        const g = t.groups;
        const rank = Number(m[g.rank]);
        if (!Number.isSafeInteger(rank))
            return null; // the token-by-token reader decides the rest
        const chunkId = g.chunk === 0 ? null : m[g.chunk];
        const docId = g.doc === 0 ? null : m[g.doc];
        const docPath = g.path === 0 ? null : m[g.path];
        const version = g.version === 0 ? null : m[g.version];
        this.p = t.scan.lastIndex;
        if (t.unknownKeys.length > 0)
            this.unknownKeys.push(...t.unknownKeys);
        templateReads++;
        return new RowHit(rank, chunkId, docId, docPath, version, null, s, at, t);
    }
    /** A hit's key as its id (0: a key not read), a key the result schema does not know noted. */
    hitKey() {
        const key = this.key();
        const id = HIT_KEYS.get(key) ?? 0;
        if (id === 0 && !RESULT_HIT_KEYS.has(key))
            this.hitUnknownKeys.push(`hits_top_k[].${key}`);
        return id;
    }
    /** One hit object read token by token; its values' positions are noted in `cuts` for a template. */
    genericHit() {
        this.expect(OPEN_BRACE);
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACE)
            throw BAIL; // no rank
        this.hitUnknownKeys = [];
        let rank = 0;
        let chunkId = null;
        let docId = null;
        let docPath = null;
        let version = null;
        const detail = emptyDetail();
        let seen = 0;
        for (;;) {
            if (this.s.charCodeAt(this.p) <= 0x20)
                this.ws();
            const id = this.hitKey();
            switch (id) {
                case K_RANK: {
                    const at = this.p;
                    const c = this.s.charCodeAt(at);
                    if (!(c > ZERO && c <= NINE))
                        throw BAIL; // a sign, zero or not a number: the slow path says which
                    rank = this.number();
                    if (!Number.isInteger(rank))
                        throw BAIL;
                    this.cuts.push(K_RANK, at, this.p);
                    break;
                }
                case K_CHUNK:
                    chunkId = this.stringOrNull(K_CHUNK);
                    break;
                case K_DOC:
                    docId = this.stringOrNull(K_DOC);
                    break;
                case K_PATH:
                    docPath = this.stringOrNull(K_PATH);
                    break;
                case K_HEADING:
                    detail.headingJson = this.headingJson();
                    break;
                case K_SNIPPET:
                    detail.snippet = this.stringOrNull(K_SNIPPET);
                    break;
                case K_SCORE:
                    detail.score = this.numberOrNull(K_SCORE);
                    break;
                case K_CITATION:
                    this.citation(detail);
                    break;
                case K_VERSION:
                    version = this.stringOrNull(K_VERSION);
                    break;
                default:
                    this.otherValue(id);
            }
            if (seen & id)
                throw BAIL;
            seen |= id;
            if (!this.nextMember(CLOSE_BRACE))
                break;
        }
        if (!(seen & K_RANK))
            throw BAIL;
        return new RowHit(rank, chunkId, docId, docPath, version, detail, '', 0, null);
    }
    /** Cuts the hit just read at its values (noted in `cuts`) into a template, compiled once per distinct shape. */
    learnTemplate(start, end) {
        const cuts = this.cuts;
        let source = '';
        let scanSource = '';
        const slots = [];
        let from = start;
        for (let i = 0; i < cuts.length; i += 3) {
            const slot = cuts[i];
            let at = cuts[i + 1];
            let until = cuts[i + 2];
            if (at === -1)
                continue; // null: part of the literal text
            if (until === -1)
                return; // a value with escapes: no template
            if (slot & STRING_SLOTS) {
                at += 1; // the quotes stay in the literal text
                until -= 1;
            }
            const literal = escapeRegExp(this.s.slice(from, at));
            source += literal + SLOT_PATTERN[slot];
            scanSource += literal + scanPattern(slot);
            slots.push(slot);
            from = until;
        }
        const tail = escapeRegExp(this.s.slice(from, end));
        source += tail;
        scanSource += tail;
        let template = this.compiled.get(source);
        if (template === undefined) {
            if (this.compiled.size >= MAX_TEMPLATES_COMPILED)
                return;
            template = {
                scan: new RegExp(scanSource, 'y'),
                groups: groupsOf(slots.filter((slot) => slot & READ_AT_ONCE)),
                full: new RegExp(source, 'y'),
                slots,
                citationUsable: slots.includes(CITATION_PATH) && slots.includes(CITATION_START),
                unknownKeys: this.hitUnknownKeys,
            };
            this.compiled.set(source, template);
        }
        const templates = this.templates;
        const i = templates.indexOf(template);
        if (i >= 0)
            templates.splice(i, 1);
        templates.unshift(template);
        if (templates.length > MAX_TEMPLATES_TRIED)
            templates.pop();
    }
    hits() {
        const c = this.s.charCodeAt(this.p);
        if (c === LOWER_N) {
            this.literal('null');
            return [];
        }
        if (c !== OPEN_BRACKET)
            throw BAIL;
        this.p++;
        const hits = [];
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACKET) {
            this.p++;
            return hits;
        }
        let previousRank = 0;
        let seenRanks = null;
        for (;;) {
            const hit = this.hit();
            const rank = hit.rank;
            // Increasing ranks cannot repeat; once one is out of order, every rank is checked against a set.
            if (rank <= previousRank && seenRanks === null)
                seenRanks = new Set(hits.map((h) => h.rank));
            if (seenRanks !== null) {
                if (seenRanks.has(rank))
                    throw BAIL;
                seenRanks.add(rank);
            }
            hits.push(hit);
            previousRank = rank;
            if (!this.nextMember(CLOSE_BRACKET))
                break;
        }
        if (seenRanks !== null)
            hits.sort((a, b) => a.rank - b.rank);
        return hits;
    }
    /**
     * The row: members before `hits_top_k` one by one, the hits by their templates, the members after the hits (the
     * answer, timings, judge scores) by one JSON.parse of their text, as V8's parser builds those values faster.
     */
    result() {
        this.expect(OPEN_BRACE);
        const fields = {};
        let hits = null;
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) === CLOSE_BRACE) {
            this.p++;
        }
        else {
            for (;;) {
                if (this.s.charCodeAt(this.p) <= 0x20)
                    this.ws();
                const key = this.key();
                if (key === 'hits_top_k') {
                    hits = this.hits();
                    if (!this.nextMember(CLOSE_BRACE))
                        break;
                    return { fields: this.membersAfterHits(fields), hits, unknownKeys: this.unknownKeys };
                }
                if (READ_TOP_LEVEL.has(key)) {
                    if (Object.hasOwn(fields, key))
                        throw BAIL;
                    fields[key] = this.value();
                }
                else {
                    if (!RESULT_TOP_KEYS.has(key))
                        this.unknownKeys.push(key);
                    this.skipValue();
                }
                if (!this.nextMember(CLOSE_BRACE))
                    break;
            }
        }
        this.ws();
        if (this.p !== this.s.length)
            throw BAIL; // text after the object
        return { fields, hits: hits ?? [], unknownKeys: this.unknownKeys };
    }
    /**
     * After the hits and their comma: the remaining members parsed as one object, with the members read before them.
     * A key given twice (JSON.parse keeps the last) or a second `hits_top_k` leaves the row to the slow path.
     */
    membersAfterHits(before) {
        if (this.s.charCodeAt(this.p) <= 0x20)
            this.ws();
        if (this.s.charCodeAt(this.p) !== QUOTE)
            throw BAIL; // `,}` is not JSON, though `{}` would be
        let rest;
        try {
            rest = JSON.parse(`{${this.s.slice(this.p)}`);
        }
        catch {
            throw BAIL;
        }
        if (Object.hasOwn(rest, 'hits_top_k'))
            throw BAIL;
        for (const key of Object.keys(before)) {
            if (Object.hasOwn(rest, key))
                throw BAIL;
            rest[key] = before[key];
        }
        this.p = this.s.length;
        return rest;
    }
}
const scanner = new Scanner();
let templateReads = 0;
/** How many hits this thread has read through templates (for tests and benchmarks). */
function templateReadCount() {
    return templateReads;
}
/** Reads one `result_json` text; null when it is not of the common shape (then the slow path decides). */
function scanResultJson(text) {
    try {
        scanner.s = text;
        scanner.p = 0;
        scanner.backslashFrom = Number.POSITIVE_INFINITY; // none known in this row
        scanner.unknownKeys.length = 0;
        return scanner.result();
    }
    catch {
        return null;
    }
    finally {
        scanner.s = '';
        scanner.decoded = '';
        scanner.checkControl = true;
    }
}

;// CONCATENATED MODULE: ./src/load/queryResult.ts







/**
 * One row's `result_json` as a QueryResult: through the fast reader (src/load/resultJson.ts) when the text has the
 * common shape, else through JSON.parse and parseQueryResult, which name the file, table, run, query and field of
 * any error.
 */
/** The most bytes of a run's id, suite, commit and time, and of a query id: longer ones are refused (docs/cli.md). */
const MAX_ID_BYTES = 1024;
/**
 * One result row as a QueryResult (an InputError naming file, run, query and field), noting in `notice` its keys the
 * result schema does not know and whether a hit can match nothing: a look at every row, for the check of the first.
 */
function readResultRow(file, runId, queryId, resultJson, notice = null) {
    // Three UTF-8 bytes at most per UTF-16 unit: the byte count is needed only past a third of the cap.
    if (queryId.length > MAX_ID_BYTES / 3 && Buffer.byteLength(queryId) > MAX_ID_BYTES) {
        throw new errors_InputError(`${file}: table \`eval_query_results\`, run \`${inputText_oneLine(runId)}\`, query ` +
            `\`${inputText_oneLine(`${queryId.slice(0, 200)}… (${Buffer.byteLength(queryId)} bytes)`)}\`: query_id holds more than ` +
            `the ${MAX_ID_BYTES} bytes EvalVerdict reads in an id`);
    }
    if (typeof resultJson === 'string') {
        // Both readers build what the text holds (the fast one the members after the hits by JSON.parse): a long text is
        // checked first (parseJsonCell then need not check it again).
        if (resultJson.length >= JSON_SCAN_FROM_CHARS)
            refuseJsonPastBounds(resultJson, JSON_VALUE_BOUNDS, `${rowWhere(file, runId, queryId)}, column \`result_json\``, 'in one value');
        const scanned = scanResultJson(resultJson);
        if (scanned !== null) {
            let result = null;
            try {
                result = queryResultOf(scanned.fields, queryId, scanned.hits);
            }
            catch {
                // The slow path below gives the message.
            }
            if (result !== null) {
                if (notice !== null) {
                    for (const key of scanned.unknownKeys)
                        notice.unknownKeys.add(key);
                    collectUnknownKeys(scanned.fields, notice.unknownKeys);
                    if (!notice.unmatchableHit)
                        notice.unmatchableHit = hasUnmatchableHit(result.hits);
                }
                return result;
            }
        }
    }
    const where = rowWhere(file, runId, queryId);
    const value = parseJsonCell(resultJson, `${where}, column \`result_json\``, true);
    const result = parseQueryResult(value, queryId, where);
    if (notice !== null) {
        collectUnknownKeys(value, notice.unknownKeys);
        // validate's rule on the values as written (a `false` id, an empty doc_path beside rel_path)
        if (!notice.unmatchableHit)
            notice.unmatchableHit = hasUnmatchableRawHit(value);
    }
    return result;
}
/**
 * A hit with no chunk_id, doc_id or path: it can match nothing (validate's `unmatchable-hit`). The fast reader's hits
 * hold strings or null, at most one of doc_path and rel_path, so this is validate's rule there.
 */
function hasUnmatchableHit(hits) {
    for (const h of hits)
        if (!h.chunkId && !h.docId && !h.docPath)
            return true;
    return false;
}
/** The file, table, run and query a result row's messages start with. */
function rowWhere(file, runId, queryId) {
    return `${file}: table \`eval_query_results\`, run \`${inputText_oneLine(runId)}\`, query \`${inputText_oneLine(queryId)}\``;
}
/** Turns one `result_json` into a QueryResult, or throws an InputError naming `where` and the field. */
function parseQueryResult(value, queryId, where) {
    try {
        return queryResultOf(value, queryId);
    }
    catch (error) {
        if (error instanceof FieldError)
            throw new errors_InputError(`${where}: ${error.message}`);
        throw error;
    }
}
/**
 * `value` as a QueryResult, or a FieldError naming the field. `scannedHits`: the hits the fast reader read and
 * checked (then `value` has no hits_top_k).
 */
function queryResultOf(value, queryId, scannedHits) {
    if (!isObject(value)) {
        throw new FieldError('result_json', `\`result_json\` must be a JSON object, got ${describe(value)}`);
    }
    const hits = scannedHits ?? parseHits(value);
    const status = optString(value, 'status');
    const error = optString(value, 'error');
    if (status !== null && status !== 'ok' && status !== 'error' && status !== 'timeout') {
        throw new FieldError('status', `\`status\` must be "ok", "error" or "timeout", got ${describe(status)}`);
    }
    const scope = value.scope;
    let folderMode = null;
    let selectedFolders = [];
    if (isObject(scope)) {
        const mode = optString(scope, 'folder_mode', 'scope.folder_mode');
        if (mode !== null && mode !== 'off' && mode !== 'on' && mode !== 'on_with_fallback') {
            throw new FieldError('scope.folder_mode', `\`scope.folder_mode\` must be "off", "on" or "on_with_fallback", got ${describe(mode)}`);
        }
        folderMode = mode;
        selectedFolders = optStringArray(scope, 'selected_folders', 'scope.selected_folders') ?? [];
    }
    const timingsMs = parseTimings(value.timings_ms);
    return {
        queryId,
        query: optString(value, 'query') ?? '',
        mode: optString(value, 'mode'),
        hits,
        answer: parseAnswer(value.answer, value.references, optBoolean(value, 'conflict_acknowledged')),
        elapsedMs: measure(value, 'elapsed_ms', 'elapsed_ms'),
        error,
        status: status ?? (error !== null ? 'error' : 'ok'),
        abstained: optBoolean(value, 'abstained'),
        timingsMs,
        costUsd: measure(value, 'cost_usd', 'cost_usd'),
        folderMode,
        selectedFolders,
        judge: parseJudge(value.judge),
    };
}
function parseTimings(timings) {
    const timingsMs = Object.create(null); // stage names are the input's
    if (isObject(timings)) {
        // Every stage is read; a run measures at most MAX_STAGES_PER_RUN of them (src/aggregate/table.ts).
        for (const key of Object.keys(timings)) {
            const ms = measure(timings, key, `timings_ms.${inputText_oneLine(key)}`);
            if (ms !== null)
                timingsMs[key] = ms;
        }
    }
    else if (timings !== undefined && timings !== null) {
        const got = describe(timings);
        throw new FieldError('timings_ms', `\`timings_ms\` must be an object of stage: milliseconds, got ${got}`);
    }
    return timingsMs;
}
function parseHits(value) {
    const rawHits = value.hits_top_k ?? [];
    if (!Array.isArray(rawHits)) {
        throw new FieldError('hits_top_k', `\`hits_top_k\` must be a list, got ${describe(rawHits)}`);
    }
    const hits = new Array(rawHits.length);
    const seenRanks = new Set();
    let sorted = true;
    for (let i = 0; i < rawHits.length; i++) {
        const h = rawHits[i];
        // Paths for messages are built only on the error path: this loop runs once per hit.
        if (!isObject(h)) {
            throw new FieldError(`hits_top_k[${i}]`, `\`hits_top_k[${i}]\` must be an object, got ${describe(h)}`);
        }
        const rank = h.rank;
        if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1 || seenRanks.has(rank)) {
            throw rankError(rank, i);
        }
        seenRanks.add(rank);
        if (i > 0 && rank < hits[i - 1].rank)
            sorted = false;
        const { score, citation } = h;
        hits[i] = {
            rank,
            chunkId: hitString(h, 'chunk_id', i),
            docId: hitString(h, 'doc_id', i),
            // The 001 runner names the document's path `rel_path`; `doc_path` wins when a hit has both.
            docPath: hitString(h, 'doc_path', i) ?? hitString(h, 'rel_path', i),
            headingPath: hitHeading(h, i),
            snippet: hitString(h, 'snippet', i),
            score: typeof score === 'number' && Number.isFinite(score) ? score : optNumber(h, 'score', `hits_top_k[${i}].score`),
            citation: citation === undefined || citation === null ? null : parseLineCitation(citation, `hits_top_k[${i}].citation`),
            chunkerVersion: hitString(h, 'chunker_version', i),
        };
    }
    if (!sorted)
        hits.sort((a, b) => a.rank - b.rank);
    return hits;
}
function rankError(rank, i) {
    const path = `hits_top_k[${i}].rank`;
    if (rank === undefined || rank === null)
        return new FieldError(path, `\`${path}\` is missing`);
    if (typeof rank !== 'number' || !Number.isInteger(rank)) {
        return new FieldError(path, `\`${path}\` must be an integer, got ${describe(rank)}`);
    }
    if (rank < 1)
        return new FieldError(path, `\`${path}\` must be >= 1, got ${rank}`);
    return new FieldError(path, `\`${path}\` repeats rank ${rank} within the query`);
}
/** A string field of a hit: the common cases inline, the rest (numbers, wrong types) through optString. */
function hitString(h, key, i) {
    const v = h[key];
    if (typeof v === 'string')
        return v;
    if (v === undefined || v === null)
        return null;
    return optString(h, key, `hits_top_k[${i}].${key}`);
}
function hitHeading(h, i) {
    return headingOf(h, `hits_top_k[${i}].heading_path`);
}
/** A `heading_path`: a list of headings, or one text with the 001 runner's delimiter `>` (`"Setup > Install"`). */
function headingOf(obj, path) {
    const v = obj.heading_path;
    if (v === undefined || v === null)
        return [];
    if (typeof v === 'string')
        return splitHeadingPath(v);
    if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
        return v;
    return optStringArray(obj, 'heading_path', path) ?? [];
}
function parseLineCitation(c, path) {
    if (!isObject(c))
        throw new FieldError(path, `\`${path}\` must be an object, got ${describe(c)}`);
    const file = optString(c, 'path', `${path}.path`);
    const start = optNumber(c, 'start', `${path}.start`);
    const end = optNumber(c, 'end', `${path}.end`);
    if (file === null || start === null)
        return null;
    return { kind: 'line', path: file, start, end: end ?? start };
}
/** A citation without its inner `citation` object reads as one with no fields. */
const NO_CITATION = Object.freeze({});
// optString and optNumber of citation `i`'s field, with the path for a message built only when there is one.
function citationString(obj, key, i, field) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    return typeof v === 'string' ? v : optString(obj, key, `answer.citations[${i}]${field}`);
}
function citationNumber(obj, key, i, field) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    return typeof v === 'number' && Number.isFinite(v) ? v : optNumber(obj, key, `answer.citations[${i}]${field}`);
}
function parseCitation(c, i) {
    if (!isObject(c)) {
        throw new FieldError(`answer.citations[${i}]`, `\`answer.citations[${i}]\` must be an object, got ${describe(c)}`);
    }
    const inner = isObject(c.citation) ? c.citation : NO_CITATION;
    return {
        marker: citationString(c, 'marker', i, '.marker'),
        chunkId: citationString(c, 'chunk_id', i, '.chunk_id') ?? citationString(inner, 'chunk_id', i, '.citation.chunk_id'),
        path: citationString(inner, 'path', i, '.citation.path'),
        // A code citation may name its lines `start_line`/`end_line` or `line_start`/`line_end`.
        start: citationNumber(inner, 'start', i, '.citation.start') ??
            citationNumber(inner, 'start_line', i, '.citation.start_line') ??
            citationNumber(inner, 'line_start', i, '.citation.line_start'),
        end: citationNumber(inner, 'end', i, '.citation.end') ??
            citationNumber(inner, 'end_line', i, '.citation.end_line') ??
            citationNumber(inner, 'line_end', i, '.citation.line_end'),
    };
}
/**
 * A reference as the 001 runner writes it, `{rel_path, heading_path}` (`heading_path` a list or an `"A > B"` text;
 * `chunk_id`, `start` and `end` read when present): a citation of that path and section.
 */
function parseReference(r, i, field) {
    const path = `${field}[${i}]`;
    if (!isObject(r))
        throw new FieldError(path, `\`${path}\` must be an object, got ${describe(r)}`);
    const start = optNumber(r, 'start', `${path}.start`);
    return {
        marker: optString(r, 'marker', `${path}.marker`),
        chunkId: optString(r, 'chunk_id', `${path}.chunk_id`),
        path: optString(r, 'rel_path', `${path}.rel_path`) ?? optString(r, 'path', `${path}.path`),
        start,
        end: optNumber(r, 'end', `${path}.end`) ?? start,
        headingPath: headingOf(r, `${path}.heading_path`),
    };
}
function parseAnswer(a, topLevelReferences, topLevelAcknowledged) {
    if (a === undefined || a === null)
        return null;
    if (!isObject(a))
        throw new FieldError('answer', `\`answer\` must be an object or null, got ${describe(a)}`);
    const rawCitations = a.citations ?? [];
    if (!Array.isArray(rawCitations))
        throw new FieldError('answer.citations', '`answer.citations` must be a list');
    let citations = mapPacked(rawCitations, parseCitation);
    // The 001 runner's `references` (in the answer, else beside it) are citations too, after any `citations`.
    const inAnswer = a.references !== undefined && a.references !== null;
    const rawReferences = inAnswer ? a.references : topLevelReferences;
    const referencesField = inAnswer ? 'answer.references' : 'references';
    const referencesListed = Array.isArray(rawReferences);
    if (rawReferences !== undefined && rawReferences !== null) {
        if (!referencesListed) {
            throw new FieldError(referencesField, `\`${referencesField}\` must be a list, got ${describe(rawReferences)}`);
        }
        const references = rawReferences.map((r, i) => parseReference(r, i, referencesField));
        citations = citations.length === 0 ? references : [...citations, ...references];
    }
    const usage = isObject(a.usage) ? a.usage : {};
    const grounded = optBoolean(a, 'grounded', 'answer.grounded');
    return {
        text: optString(a, 'answer', 'answer.answer') ?? '',
        citations,
        citationsListed: Array.isArray(a.citations) || referencesListed,
        // Refusal is `grounded: false` (or `abstained`); an answer that does not say is an answer, not a refusal.
        grounded: grounded ?? true,
        conflictAcknowledged: optBoolean(a, 'conflict_acknowledged', 'answer.conflict_acknowledged') ?? topLevelAcknowledged,
        refusalReason: optString(a, 'refusal_reason', 'answer.refusal_reason'),
        promptTokens: measure(usage, 'prompt_tokens', 'answer.usage.prompt_tokens'),
        completionTokens: measure(usage, 'completion_tokens', 'answer.usage.completion_tokens'),
        latencyMs: measure(usage, 'latency_ms', 'answer.usage.latency_ms'),
    };
}
function parseJudge(j) {
    if (j === undefined || j === null)
        return null;
    if (!isObject(j))
        throw new FieldError('judge', `\`judge\` must be an object, got ${describe(j)}`);
    const spot = isObject(j.spot_check) ? j.spot_check : {};
    const judgeUsage = isObject(j.usage) ? j.usage : {};
    const claims = j.unsupported_claims;
    return {
        groundedness: judgeScore(j, 'groundedness', 'judge.groundedness'),
        correctness: judgeScore(j, 'correctness', 'judge.correctness'),
        unsupportedClaims: Array.isArray(claims) ? claims.length : null,
        spotCheckGroundedness: judgeScore(spot, 'groundedness', 'judge.spot_check.groundedness'),
        spotCheckCorrectness: judgeScore(spot, 'correctness', 'judge.spot_check.correctness'),
        promptTokens: measure(judgeUsage, 'prompt_tokens', 'judge.usage.prompt_tokens'),
        completionTokens: measure(judgeUsage, 'completion_tokens', 'judge.usage.completion_tokens'),
    };
}
/** A time, a cost or a count of tokens: a negative one would pull means and totals down without a sign. */
function measure(obj, key, path) {
    const v = optNumber(obj, key, path);
    if (v !== null && v < 0)
        throw new FieldError(path, `\`${path}\` must be a number >= 0, got ${v}`);
    return v;
}
/** A judge score on the contract's 0-5 scale: one on another scale would move the means without a sign. */
function judgeScore(obj, key, path) {
    const v = optNumber(obj, key, path);
    if (v !== null && (v < 0 || v > 5))
        throw new FieldError(path, `\`${path}\` must be a score from 0 to 5, got ${v}`);
    return v;
}

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: ./src/load/readFully.ts

/** Reads `size` bytes at `position` of an open file into `target` (readSync may return fewer: reads until done). */
function readFully(fd, target, size, position, file) {
    for (let done = 0; done < size;) {
        const n = (0,external_node_fs_namespaceObject.readSync)(fd, target, done, size - done, position + done);
        if (n === 0)
            throw new Error(`${file}: the file shrank while it was read`);
        done += n;
    }
}

;// CONCATENATED MODULE: ./src/load/regularFile.ts
/**
 * Opening input files as regular files only. A FIFO blocks an open for reading until a writer comes (for ever),
 * and a device such as /dev/zero never ends: each is refused at once, by opening without blocking and asking the
 * open file what it is. Text inputs (golden set, gate config) are read up to a size cap.
 */



/** What a file that is not a regular file is, in words. */
function kindOf(stats) {
    if (stats.isDirectory())
        return 'a directory';
    if (stats.isFIFO())
        return 'a FIFO (named pipe)';
    if (stats.isCharacterDevice())
        return 'a character device';
    if (stats.isBlockDevice())
        return 'a block device';
    if (stats.isSocket())
        return 'a socket';
    return 'not a regular file';
}
/**
 * A descriptor of `file` opened for reading, after checking it is a regular file (`what` names it in the message:
 * `FILE: the run database is a FIFO (named pipe), not a regular file`). Errors of the open itself are thrown as
 * they are (ENOENT...), for the caller's message.
 */
function openRegularFile(file, what) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting; a regular file ignores it.
    const fd = (0,external_node_fs_namespaceObject.openSync)(file, external_node_fs_namespaceObject.constants.O_RDONLY | external_node_fs_namespaceObject.constants.O_NONBLOCK);
    let stats;
    try {
        stats = (0,external_node_fs_namespaceObject.fstatSync)(fd);
    }
    catch (error) {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
        throw error;
    }
    if (!stats.isFile()) {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
        throw new errors_InputError(`${file}: ${what} is ${kindOf(stats)}, not a regular file`);
    }
    return fd;
}
/**
 * The bytes of the regular file `file`, at most `maxBytes` (a larger file is refused before it is read:
 * `FILE: the golden set is 2.1 GiB, more than the 1 GiB EvalVerdict reads`).
 */
function regularFile_readRegularFile(file, what, maxBytes) {
    const fd = openRegularFile(file, what);
    try {
        const size = (0,external_node_fs_namespaceObject.fstatSync)(fd).size;
        if (size > maxBytes) {
            throw new errors_InputError(`${file}: ${what} is ${sizeText(size)}, more than the ${sizeText(maxBytes)} EvalVerdict reads`);
        }
        const bytes = Buffer.allocUnsafe(size);
        readFully(fd, bytes, size, 0, file);
        return bytes;
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
function sizeText(bytes) {
    if (bytes >= 1 << 30)
        return `${Number((bytes / (1 << 30)).toFixed(1))} GiB`;
    if (bytes >= 1 << 20)
        return `${Number((bytes / (1 << 20)).toFixed(1))} MiB`;
    if (bytes >= 1 << 10)
        return `${Number((bytes / (1 << 10)).toFixed(1))} KiB`;
    return `${bytes} bytes`;
}
/** The most bytes of a golden set EvalVerdict reads (a 100,000-query set with long queries is ~100 MB). */
const regularFile_MAX_GOLDEN_BYTES = 1 << 30;
/** The most bytes of a gate config file. */
const MAX_CONFIG_BYTES = (/* unused pure expression or super */ null && (1 << 20));

;// CONCATENATED MODULE: ./src/load/sideFiles.ts
/**
 * The files SQLite keeps beside a database (`FILE-wal`, `FILE-journal`). sql.js reads the database file alone, so
 * a log with committed changes not yet copied into the file, or a hot journal, means stale or torn data.
 */



const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);
// WAL header (32 bytes, big-endian): magic, version, page size, checkpoint sequence, salt-1, salt-2, checksum-1,
// checksum-2. Frame header (24 bytes): page number, database size in pages after a commit (0 otherwise), salt-1,
// salt-2, checksum-1, checksum-2; the page follows.
const WAL_MAGIC = 0x377f0682; // low bit 1: the checksums read big-endian words; 0: little-endian
const WAL_HEADER = 32;
const FRAME_HEADER = 24;
/**
 * The first `n` bytes of `file` (fewer when it is shorter), or null when there is no such file. A side file that is
 * not a regular file (a FIFO would block the read for ever; a directory) is refused, naming it.
 */
function headOf(file, n, what = 'a file SQLite keeps beside the database') {
    let fd;
    try {
        fd = openRegularFile(file, what);
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
    try {
        const head = Buffer.alloc(n);
        return head.subarray(0, (0,external_node_fs_namespaceObject.readSync)(fd, head, 0, n, 0));
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
/**
 * Refuses a database whose newest state is not in its file alone: a log whose first frame carries its header's
 * salts, unless all its committed pages are in the file already; or a hot journal (a write interrupted or under
 * way). `--write` would otherwise also leave a file that does not match the log beside it.
 */
function checkSideFiles(file) {
    const real = sideFilesBase(file);
    if (hasCurrentWalFrames(real) && !walAlreadyInFile(real, `${real}-wal`)) {
        throw new errors_InputError(`${file}: its write-ahead log ${real}-wal may hold changes that are not in the database file yet ` +
            '(a program has it open, or was not closed); close the program or checkpoint the log first: ' +
            `sqlite3 ${JSON.stringify(real)} "PRAGMA wal_checkpoint(TRUNCATE)"`);
    }
    const journal = headOf(`${real}-journal`, JOURNAL_MAGIC.length, 'the rollback journal');
    if (journal?.equals(JOURNAL_MAGIC)) {
        throw new errors_InputError(`${file}: its rollback journal ${real}-journal is hot (a write was interrupted, or is under way), so the file ` +
            'may be half-written; let the writing program finish, or open the database once with sqlite3 to roll the ' +
            'write back');
    }
}
/**
 * Whether every change the log holds is in the database file already, reading the log as SQLite does: frames from
 * the start while each carries the header's salts and continues the checksum, up to the last commit frame; each
 * page's last committed version must equal the file's page, and the committed size the file's. This tells a log
 * that was checkpointed and kept (a writer still has it open) from one with new changes. False on anything else,
 * a log SQLite would ignore included, so the caller refuses.
 */
function walAlreadyInFile(dbFile, walFile) {
    let wal = null;
    let db = null;
    try {
        wal = openRegularFile(walFile, 'the write-ahead log');
        db = openRegularFile(dbFile, 'the run database');
        const header = Buffer.alloc(WAL_HEADER);
        if ((0,external_node_fs_namespaceObject.readSync)(wal, header, 0, WAL_HEADER, 0) !== WAL_HEADER)
            return false;
        const pageSize = header.readUInt32BE(8);
        if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
            return false;
        const bigEndian = (header.readUInt32BE(0) & 1) === 1;
        let sum = walChecksum(header, 0, 24, 0, 0, bigEndian);
        if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28))
            return false;
        const frame = Buffer.alloc(FRAME_HEADER + pageSize);
        const latest = new Map(); // page number -> offset of its last frame, up to the last commit
        const pending = new Map(); // ... of frames after the last commit so far
        let committedPages = -1;
        for (let at = WAL_HEADER; (0,external_node_fs_namespaceObject.readSync)(wal, frame, 0, frame.length, at) === frame.length; at += frame.length) {
            if (frame.readUInt32BE(8) !== header.readUInt32BE(16) || frame.readUInt32BE(12) !== header.readUInt32BE(20)) {
                break;
            }
            const page = frame.readUInt32BE(0);
            if (page === 0)
                break;
            sum = walChecksum(frame, 0, 8, sum[0], sum[1], bigEndian);
            sum = walChecksum(frame, FRAME_HEADER, frame.length, sum[0], sum[1], bigEndian);
            if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20))
                break;
            pending.set(page, at);
            const pagesAfterCommit = frame.readUInt32BE(4);
            if (pagesAfterCommit !== 0) {
                for (const [p, offset] of pending)
                    latest.set(p, offset);
                pending.clear();
                committedPages = pagesAfterCommit;
            }
        }
        if (committedPages === -1)
            return true; // no committed frame: nothing of the log is current
        if ((0,external_node_fs_namespaceObject.fstatSync)(db).size !== committedPages * pageSize)
            return false;
        const inFile = Buffer.alloc(pageSize);
        for (const [page, offset] of latest) {
            if (page > committedPages)
                continue; // cut off by the commit's size
            if ((0,external_node_fs_namespaceObject.readSync)(wal, frame, 0, frame.length, offset) !== frame.length)
                return false;
            if ((0,external_node_fs_namespaceObject.readSync)(db, inFile, 0, pageSize, (page - 1) * pageSize) !== pageSize)
                return false;
            if (!inFile.equals(frame.subarray(FRAME_HEADER)))
                return false;
        }
        return true;
    }
    catch {
        return false;
    }
    finally {
        if (wal !== null)
            (0,external_node_fs_namespaceObject.closeSync)(wal);
        if (db !== null)
            (0,external_node_fs_namespaceObject.closeSync)(db);
    }
}
/** SQLite's log checksum of `data[from, to)` (a multiple of 8 bytes) continuing from (s1, s2). */
function walChecksum(data, from, to, s1, s2, bigEndian) {
    for (let i = from; i < to; i += 8) {
        const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
        const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
        s1 = (s1 + x0 + s2) >>> 0;
        s2 = (s2 + x1 + s1) >>> 0;
    }
    return [s1, s2];
}
/** Where SQLite keeps a database's side files: beside the file a symbolic link points at. */
function sideFilesBase(file) {
    try {
        return (0,external_node_fs_namespaceObject.realpathSync)(file);
    }
    catch {
        return file; // the file itself was opened already: a path realpath cannot follow is looked for as given
    }
}
/** Whether `FILE-wal` exists and its first frame carries its header's salts: SQLite reads such a log. */
function hasCurrentWalFrames(real) {
    const wal = headOf(`${real}-wal`, WAL_HEADER + FRAME_HEADER, 'the write-ahead log');
    if (wal === null || wal.length !== WAL_HEADER + FRAME_HEADER)
        return false;
    return ((wal.readUInt32BE(0) & 0xfffffffe) === WAL_MAGIC &&
        wal.readUInt32BE(WAL_HEADER + 8) === wal.readUInt32BE(16) &&
        wal.readUInt32BE(WAL_HEADER + 12) === wal.readUInt32BE(20));
}
/**
 * Refuses to replace a database file (`--write`) beside a log SQLite may read (checksums unchecked: erring on the
 * side of refusing), even one whose pages are all in the file: SQLite would lay the log's pages over the new file
 * on the next open.
 */
function checkReplaceable(file) {
    const real = sideFilesBase(file);
    let walFrames;
    try {
        checkSideFiles(file); // a log with changes the file lacks, or a hot journal: the message reading gives
        walFrames = hasCurrentWalFrames(real);
    }
    catch (error) {
        if (error instanceof InputError)
            throw error;
        const reason = error.code ?? String(error);
        throw new InputError(`${file}: cannot write into it: its write-ahead log ${real}-wal cannot be read (${reason})`);
    }
    if (walFrames) {
        throw new InputError(`${file}: cannot write into it while its write-ahead log ${real}-wal holds frames (SQLite would lay them over ` +
            'the new file); close the program that has it open, or checkpoint and empty the log first: ' +
            `sqlite3 ${JSON.stringify(real)} "PRAGMA wal_checkpoint(TRUNCATE)"`);
    }
}
/** Whether the database file is in WAL mode (its header's read and write versions, bytes 18 and 19, are 2). */
function isWalMode(file) {
    const head = headOf(file, 20);
    return head !== null && head.length === 20 && head[18] === 2 && head[19] === 2;
}

;// CONCATENATED MODULE: external "node:module"
const external_node_module_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:module");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./src/load/sqlite.ts






let sqlPromise = null;
/**
 * sql.js is loaded at run time, not bundled: its Emscripten glue does not survive webpack's rewriting of
 * `typeof module`. The build copies sql-wasm.js (as .cjs: dist is an ES module package) and sql-wasm.wasm next to
 * each bundle in dist/; from source they come from node_modules.
 */
function sqlJsFiles() {
    const here = (0,external_node_path_namespaceObject.dirname)((0,external_node_url_namespaceObject.fileURLToPath)(import.meta.url));
    const script = (0,external_node_path_namespaceObject.join)(here, 'sql-wasm.cjs');
    if ((0,external_node_fs_namespaceObject.existsSync)(script))
        return { script, wasm: (0,external_node_path_namespaceObject.join)(here, 'sql-wasm.wasm') };
    // Not the literal 'sql.js', which the bundler would follow and bundle.
    const resolved = (0,external_node_module_namespaceObject.createRequire)(import.meta.url).resolve(['sql', 'js'].join('.'));
    return { script: resolved, wasm: (0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.dirname)(resolved), 'sql-wasm.wasm') };
}
/**
 * sql.js, loaded once. Its files are read now and its WebAssembly compiled in the background, so a caller can start
 * it early; a failure (a broken install) is the promise's, never a throw.
 */
function sqlite_loadSqlJs() {
    if (!sqlPromise) {
        try {
            const { script, wasm } = sqlJsFiles();
            const initSqlJs = (0,external_node_module_namespaceObject.createRequire)(import.meta.url)(script);
            const bytes = (0,external_node_fs_namespaceObject.readFileSync)(wasm);
            const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
            sqlPromise = initSqlJs({ wasmBinary });
        }
        catch (error) {
            sqlPromise = Promise.reject(error);
        }
    }
    return sqlPromise;
}
/**
 * A database file as sql.js sees it, read from disk on demand instead of held in memory
 * (docs/decisions/0003-run-database-read-on-demand.md). sql.js's in-memory file system stores
 * `bytes.slice(0, length)` as the file's contents and copies every page SQLite reads out with
 * `contents.subarray(from, to)`: this object answers both from the file. A write (`--write`) goes through `set`,
 * which loads the whole file first. Should a future sql.js touch the contents another way, test/runDatabaseErrors.test.ts
 * fails; wrong bytes are never read silently.
 */
class FileBackedBytes {
    file;
    length;
    fd;
    bytes = null;
    /** Read-ahead windows, most recently used first (at most WINDOWS). */
    windows = [];
    constructor(file) {
        this.file = file;
        this.fd = openRegularFile(file, 'the run database');
        this.length = (0,external_node_fs_namespaceObject.fstatSync)(this.fd).size;
    }
    /** The first `n` bytes (the header checks). */
    head(n) {
        return Uint8Array.from(this.subarray(0, Math.min(n, this.length)));
    }
    subarray(start = 0, end = this.length) {
        if (this.bytes)
            return this.bytes.subarray(start, end);
        end = Math.min(end, this.length);
        const n = Math.max(0, end - start);
        const windows = this.windows;
        for (let i = 0; i < windows.length; i++) {
            const w = windows[i];
            const offset = start - w.start;
            if (offset >= 0 && offset + n <= w.data.length) {
                if (i > 0) {
                    windows.splice(i, 1);
                    windows.unshift(w);
                }
                return w.data.subarray(offset, offset + n);
            }
        }
        let ahead = NEAR_AHEAD;
        for (const w of windows) {
            const from = start - w.start;
            if (from >= 0 && from <= w.data.length + NEAR_AHEAD)
                ahead = READ_AHEAD;
        }
        // A 64 KB boundary: SQLite sometimes reads a page just before the one it read last.
        const from = start - (start % NEAR_AHEAD);
        const size = Math.min(Math.max(start + n, from + ahead), this.length) - from;
        // The least recently used window makes room, its memory reused (its own ArrayBuffer: allocUnsafeSlow never
        // hands out the shared pool).
        const evicted = windows.length >= WINDOWS ? windows.pop().data.buffer : null;
        const memory = evicted !== null && evicted.byteLength >= size ? evicted : Buffer.allocUnsafeSlow(size).buffer;
        const data = Buffer.from(memory, 0, size);
        this.readAt(data, size, from);
        windows.unshift({ start: from, data });
        return data.subarray(start - from, start - from + n);
    }
    /** MEMFS stores the file with `slice(0, length)`: hand over this object itself. */
    slice(start = 0, end = this.length) {
        if (start === 0 && end >= this.length)
            return this;
        return Uint8Array.from(this.subarray(start, end));
    }
    /** A write into the file (an UPDATE): from here on the file lives in memory like any MEMFS file. */
    set(source, offset = 0) {
        if (!this.bytes) {
            const bytes = new Uint8Array(this.length);
            this.readAt(bytes, this.length, 0);
            this.bytes = bytes;
            this.windows = [];
            this.close();
        }
        this.bytes.set(source, offset);
    }
    close() {
        if (this.fd !== null)
            (0,external_node_fs_namespaceObject.closeSync)(this.fd);
        this.fd = null;
    }
    readAt(target, size, position) {
        if (this.fd === null)
            throw new Error(`${this.file}: read after close`);
        readFully(this.fd, target, size, position, this.file);
    }
}
// Read ahead far when a read continues a window (a table is read mostly page after page), a little when it starts
// elsewhere (a query_id scan walks an index whose pages lie spread over the file). The index and the table keep
// windows of their own; each window is memory.
const READ_AHEAD = 1 << 20;
const NEAR_AHEAD = 64 << 10;
const WINDOWS = 4;

;// CONCATENATED MODULE: ./src/time.ts
/**
 * The one clock: every time EvalVerdict reads (a run's `created_at`, the action's "now") is parsed here, so the run
 * picked as newest, the swapped-runs warning and the report's ages agree, whatever the machine's time zone; and every
 * time it writes is taken here, in UTC. A leaf: it imports nothing.
 */
/** Now, as the run writer and the reports write it: RFC 3339 in UTC, milliseconds kept (runs written within one
 * second still order). */
const nowIso = () => new Date().toISOString();
/** Now to the second, as the importers write a run's `created_at` (the source systems' own times have no fraction). */
const nowRfc3339 = () => nowIso().replace(/\.\d+Z$/, 'Z');
/** What runTime reads, for messages. */
const RUN_TIME_FORM = 'such as 2026-11-22T10:00:00Z; without a zone, UTC';
const RUN_TIME = new RegExp(String.raw `^(\d{4})-(\d{2})-(\d{2})` + // date
    String.raw `(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?` + // time, seconds and fraction optional
    String.raw `(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$`);
/**
 * A run's `created_at` as milliseconds since the epoch (fractions below a millisecond kept), or null when it is not
 * an RFC 3339 time. Also read: a space for the `T` and no zone, as SQLite's CURRENT_TIMESTAMP writes them (read as
 * UTC, so the newest run does not depend on where EvalVerdict runs); `+0100` (Python's `%z`); no seconds or no time.
 */
function runTime(text) {
    const m = RUN_TIME.exec(text);
    if (m === null)
        return null;
    const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) => part === undefined ? undefined : Number(part));
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60)
        return null;
    if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59))
        return null;
    // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, Math.min(second, 59)); // a leap second reads as :59
    if (date.getUTCDate() !== day)
        return null; // 2026-02-30
    const utc = date.getTime();
    const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
    return utc - offsetMinutes * 60_000 + (m[7] === undefined ? 0 : Number(`0${m[7]}`) * 1000);
}
/** Milliseconds from `earlier` to `later` (negative when `later` comes first), or null when either does not parse. */
function time_millisecondsBetween(earlier, later) {
    const [a, b] = [runTime(earlier), runTime(later)];
    return a === null || b === null ? null : b - a;
}

;// CONCATENATED MODULE: ./src/load/runDatabase.ts











/** The tables and columns read; extra columns are allowed (kebab has more). chunks and documents are optional. */
const COLUMNS = {
    eval_runs: ['run_id', 'suite', 'config_snapshot_json', 'aggregate_json', 'commit_hash', 'created_at'],
    eval_query_results: ['run_id', 'query_id', 'result_json'],
    chunks: ['chunk_id', 'doc_id', 'text', 'heading_path_json', 'source_spans_json', 'token_estimate', 'chunker_version'],
    documents: ['doc_id', 'workspace_path'],
};
/** The DDL `evalverdict init` writes: kebab's eval tables plus the two optional index tables. */
const RUN_DATABASE_DDL = `
CREATE TABLE IF NOT EXISTS eval_runs (
  run_id TEXT PRIMARY KEY,
  suite TEXT NOT NULL,
  config_snapshot_json TEXT NOT NULL,
  aggregate_json TEXT NOT NULL,
  commit_hash TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS eval_query_results (
  run_id TEXT NOT NULL REFERENCES eval_runs(run_id),
  query_id TEXT NOT NULL,
  result_json TEXT NOT NULL,
  PRIMARY KEY (run_id, query_id)
);
CREATE TABLE IF NOT EXISTS documents (
  doc_id TEXT PRIMARY KEY,
  workspace_path TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
  chunk_id TEXT PRIMARY KEY,
  doc_id TEXT NOT NULL,
  text TEXT NOT NULL,
  heading_path_json TEXT NOT NULL,
  source_spans_json TEXT NOT NULL,
  token_estimate INTEGER NOT NULL,
  chunker_version TEXT NOT NULL
);
`;
/** The first 16 of the 100 bytes of a SQLite file's header. */
const SQLITE_HEADER = 'SQLite format 3\u0000';
/** Opens a run database from disk, refusing anything that is not a readable SQLite file. */
async function openRunDatabase(file) {
    return openRunDatabaseWith(await sqlite_loadSqlJs(), file);
}
function checkHeader(file, head, size) {
    if (size === 0)
        throw new errors_InputError(`${file}: the run database is empty (0 bytes), not a SQLite file`);
    if (size < 100 || Buffer.from(head.buffer, head.byteOffset, 16).toString('latin1') !== SQLITE_HEADER) {
        throw new errors_InputError(`${file}: not a SQLite database (the file does not start with the SQLite header)`);
    }
}
/** The file opened for sql.js, after the checks that need no database (readable, SQLite header, side files). */
function openChecked(file) {
    let bytes = null;
    try {
        bytes = new FileBackedBytes(file);
        checkHeader(file, bytes.head(100), bytes.length);
        checkSideFiles(file);
        return bytes;
    }
    catch (error) {
        bytes?.close();
        throw cannotRead(file, error, 'the run database');
    }
}
function openRunDatabaseWith(SQL, file) {
    const bytes = openChecked(file);
    // sql.js reads the file's pages through `bytes` (see FileBackedBytes): closing the database closes the file.
    const db = new SQL.Database(bytes);
    const closeDb = db.close.bind(db);
    db.close = () => {
        closeDb();
        bytes.close();
    };
    try {
        // SQLite's own memory (page cache, one row's values, an expression's result) is capped for any database read.
        db.exec(`PRAGMA hard_heap_limit = ${SQLITE_HEAP_LIMIT}`);
        // Touch the schema and check integrity cheaply: a truncated file fails here.
        db.exec('SELECT count(*) FROM sqlite_master');
        const pageCount = Number(db.exec('PRAGMA page_count')[0]?.values[0]?.[0] ?? 0);
        const pageSize = Number(db.exec('PRAGMA page_size')[0]?.values[0]?.[0] ?? 0);
        if (pageCount * pageSize > bytes.length) {
            throw new Error(`database disk image is truncated (${bytes.length} bytes, header says ${pageCount * pageSize})`);
        }
    }
    catch (error) {
        db.close();
        throw new errors_InputError(`${file}: unreadable SQLite database (${inputText_oneLine(error.message)})`);
    }
    return db;
}
/**
 * SQLite's complaints about the file met while a statement runs (a corrupt page, not a database, an I/O error),
 * known by message since sql.js gives no result code; and a failed read of the file itself (FileBackedBytes).
 */
const SQLITE_FILE_ERROR = new RegExp([
    'malformed',
    'not a database',
    'disk I/O error',
    'unable to open database file',
    'unsupported file format',
    'shrank while it was read',
].join('|'), 'i');
function isFileError(error) {
    const { code, syscall } = error;
    return SQLITE_FILE_ERROR.test(error.message) || (typeof code === 'string' && syscall === 'read');
}
/**
 * `error`, thrown by SQLite (or by reading the file for it) while reading `table` of `file`: always the user's
 * (exit 2), since every statement EvalVerdict runs is fixed and only the database can make one fail: a corrupt page,
 * a collation or module it names that this SQLite lacks, a value past SQLite's memory cap.
 */
function readError(file, table, error) {
    if (error instanceof errors_InputError)
        return error;
    const message = inputText_oneLine(error instanceof Error ? error.message : String(error));
    if (error instanceof Error && isFileError(error)) {
        return new errors_InputError(`${file}: table \`${table}\`: unreadable SQLite database (${message})`);
    }
    const memory = /out of memory|too big|Invalid string length|Array buffer allocation/i.test(message)
        ? ` (a value or the work to read it is larger than the ${mib(SQLITE_HEAP_LIMIT)} SQLite may use)`
        : '';
    return new errors_InputError(`${file}: table \`${table}\`: SQLite could not read it: ${message}${memory}`);
}
function mib(bytes) {
    return `${Math.round(bytes / (1 << 20))} MiB`;
}
/** `read` (statements over `table`), with SQLite's errors as the user's (see readError). */
function reading(file, table, read) {
    try {
        return read();
    }
    catch (error) {
        throw readError(file, table, error);
    }
}
/** The statement's next row, null after the last; SQLite's errors on the way are the user's (see readError). */
function nextRow(stmt, file, table) {
    try {
        return stmt.step() ? stmt.get() : null;
    }
    catch (error) {
        throw readError(file, table, error);
    }
}
/** The most bytes one value may hold: a longer one is refused by its length, before SQLite reads it. */
const MAX_VALUE_BYTES = 64 << 20;
/** SQLite's own memory while a run database is read or written (page cache, a row, an expression's result). */
const SQLITE_HEAP_LIMIT = 512 << 20;
/**
 * Runs `SELECT columns FROM table tail` and hands each row to `each`. Each value longer than MAX_VALUE_BYTES is
 * refused by its length (octet_length reads only the record's header), so no value, however large, is fetched;
 * `label` names the row in that message (its values, with a refused one null).
 */
function forEachRow(db, file, table, columns, tail, params, label, each) {
    const capped = columns.map((c) => `CASE WHEN octet_length(${c}) > ${MAX_VALUE_BYTES} THEN NULL ELSE ${c} END`);
    const lengths = columns.map((c) => `octet_length(${c})`);
    const sql = `SELECT ${[...capped, ...lengths].join(', ')} FROM ${table}${tail}`;
    const n = columns.length;
    const stmt = reading(file, table, () => db.prepare(sql));
    try {
        if (params !== null)
            stmt.bind(params);
        for (let row = nextRow(stmt, file, table); row !== null; row = nextRow(stmt, file, table)) {
            for (let i = 0; i < n; i++) {
                const length = row[n + i];
                if (typeof length === 'number' && length > MAX_VALUE_BYTES) {
                    throw new errors_InputError(`${file}: table \`${table}\`, ${label(row)}: column \`${columns[i]}\` holds ${mib(length)}, more than ` +
                        `the ${mib(MAX_VALUE_BYTES)} EvalVerdict reads in one value`);
                }
            }
            each(row.length === n ? row : row.slice(0, n));
        }
    }
    finally {
        stmt.free();
    }
}
/** A value of a row for a message: an id as it reads on one line, or what it is when it is no text. */
function idText(value) {
    if (value === null)
        return 'NULL';
    if (value instanceof Uint8Array)
        return 'a BLOB';
    const text = String(value);
    return `\`${inputText_oneLine(text.length > 200 ? `${text.slice(0, 200)}…` : text)}\``;
}
/** `CREATE TABLE`, as SQLite writes it for a table (never for a view, a virtual table or anything else). */
const PLAIN_TABLE = /^CREATE TABLE /;
/**
 * What the database declares under our table names, from `sqlite_schema` before anything is read from them: only a
 * plain table is read. A view (its SELECT could run for ever or fill the memory), a virtual table (an FTS5 table:
 * its module runs code) or anything else under one of our names is refused, as is a column we read that is
 * computed on read (a VIRTUAL generated column).
 */
function declaredTables(db, file) {
    const names = Object.keys(COLUMNS);
    const rows = reading(file, 'sqlite_schema', () => db.exec(`SELECT lower(name), type, sql FROM sqlite_schema WHERE type <> 'trigger' AND lower(name) IN (${names
        .map((n) => `'${n}'`)
        .join(', ')})`));
    const columns = new Map();
    for (const [name, type, sql] of rows[0]?.values ?? []) {
        const table = String(name);
        const text = typeof sql === 'string' ? sql : '';
        if (type !== 'table' || !PLAIN_TABLE.test(text)) {
            const what = /^CREATE\s+VIRTUAL\s+TABLE\b/i.test(text)
                ? `a virtual table${/\bUSING\s+(\w+)/i.exec(text) ? ` (USING ${/\bUSING\s+(\w+)/i.exec(text)[1]})` : ''}`
                : type === 'view'
                    ? 'a view'
                    : `${inputText_oneLine(String(type))} ${idText(sql)}`.slice(0, 80);
            throw new errors_InputError(`${file}: \`${table}\` is ${what}, not a table; EvalVerdict reads only plain tables and never runs SQL or ` +
                'modules stored in a run database (docs/run-database.md)');
        }
        const info = reading(file, table, () => db.exec(`PRAGMA table_xinfo(${JSON.stringify(table)})`));
        const present = new Map();
        for (const r of info[0]?.values ?? [])
            present.set(String(r[1]).toLowerCase(), { hidden: Number(r[6]) });
        columns.set(table, present);
    }
    return { columns };
}
/** Whether `table` exists; if it does, it must have the columns read, each stored (not computed on read). */
function hasTable(declared, file, table) {
    const present = declared.columns.get(table);
    if (present === undefined)
        return false;
    for (const column of COLUMNS[table]) {
        const found = present.get(column);
        if (found === undefined)
            throw new errors_InputError(`${file}: table \`${table}\` has no column \`${column}\``);
        // table_xinfo's `hidden`: 2 for a VIRTUAL generated column (an expression run on every read), 3 for a STORED one.
        if (found.hidden === 2) {
            throw new errors_InputError(`${file}: table \`${table}\`, column \`${column}\` is a VIRTUAL generated column (computed by SQL stored ` +
                'in the database on every read); EvalVerdict reads only stored values');
        }
    }
    return true;
}
function checkSchema(db, file) {
    const declared = declaredTables(db, file);
    for (const table of ['eval_runs', 'eval_query_results']) {
        if (!hasTable(declared, file, table)) {
            throw new errors_InputError(`${file}: missing table \`${table}\` (a run database needs eval_runs and eval_query_results; ` +
                'see docs/run-database.md)');
        }
    }
    return { hasChunks: hasTable(declared, file, 'chunks'), hasDocuments: hasTable(declared, file, 'documents') };
}
/**
 * Before `aggregate --write` changes `eval_runs`: the table is checked as for reading, and no trigger may fire on
 * it (its SQL would run with the write: delete rows, insert gigabytes), so the write changes one row and nothing else.
 */
function checkWritable(db, file) {
    checkSchema(db, file);
    const triggers = reading(file, 'sqlite_schema', () => db.exec("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND lower(tbl_name) = 'eval_runs' ORDER BY name"));
    const names = (triggers[0]?.values ?? []).map((r) => idText(r[0]));
    if (names.length > 0) {
        throw new InputError(`${file}: table \`eval_runs\` has ${names.length === 1 ? 'a trigger' : `${names.length} triggers`} ` +
            `(${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}); --write refuses to run SQL stored in a ` +
            'run database: drop the triggers first (sqlite3 FILE "DROP TRIGGER name"), or leave out --write');
    }
}
const RUN_FIELDS = ['run_id', 'suite', 'created_at', 'commit_hash'];
/**
 * Every run's id, suite, time and commit, each read only up to MAX_ID_BYTES (a longer one is refused if its run is
 * chosen): no JSON column is read until one run is picked (runInfoFrom), so memory follows one run's values, not the
 * table's. A run id that is a BLOB, NULL or not valid UTF-8 (read with U+FFFD, it would match no result row) is
 * refused when chosen, its bytes shown in hex.
 */
function listRuns(db, file) {
    const runs = [];
    const capped = (c) => `CASE WHEN octet_length(${c}) > ${MAX_ID_BYTES} THEN NULL ELSE ${c} END`;
    const sql = 
    // A run_id past the cap is read cut, to name it in the message that refuses it.
    `SELECT CASE WHEN octet_length(run_id) > ${MAX_ID_BYTES} THEN substr(run_id, 1, 200) ELSE run_id END, ` +
        `${RUN_FIELDS.slice(1).map(capped).join(', ')}, ${RUN_FIELDS.map((c) => `octet_length(${c})`).join(', ')}, ` +
        `typeof(run_id), hex(substr(CAST(run_id AS BLOB), 1, ${MAX_ID_BYTES})) FROM eval_runs`;
    const stmt = reading(file, 'eval_runs', () => db.prepare(sql));
    try {
        for (let row = nextRow(stmt, file, 'eval_runs'); row !== null; row = nextRow(stmt, file, 'eval_runs')) {
            const [runId, suite, createdAt, commitHash] = row;
            const lengths = row.slice(4, 8).map((n) => Number(n ?? 0));
            const type = String(row[8]);
            const bytes = String(row[9]);
            const hex = `x'${bytes.slice(0, 96).toLowerCase()}'${lengths[0] > 48 ? `… (${lengths[0]} bytes)` : ''}`;
            const id = typeof runId === 'string'
                ? `${runId}${lengths[0] > MAX_ID_BYTES ? `… (${lengths[0]} bytes)` : ''}`
                : runId instanceof Uint8Array || runId === null
                    ? hex
                    : String(runId);
            const long = lengths.findIndex((n) => n > MAX_ID_BYTES);
            runs.push({
                runId: id,
                suite: String(suite ?? ''),
                createdAt: String(createdAt ?? ''),
                commitHash: commitHash === null ? null : String(commitHash),
                refusal: long !== -1
                    ? `column \`${RUN_FIELDS[long]}\` holds ${lengths[long]} bytes, more than the ${MAX_ID_BYTES} EvalVerdict ` +
                        'reads in an id, suite, commit or time'
                    : type === 'blob' || type === 'null'
                        ? `run_id is ${type === 'blob' ? 'a BLOB' : 'NULL'} (${hex}), not text that result rows can name`
                        : typeof runId === 'string' && /[^\x00-\x7f]/.test(runId) && !validUtf8(bytes)
                            ? `run_id is not valid UTF-8 (${hex}): result rows cannot be matched to it; store it as UTF-8 text`
                            : null,
            });
        }
    }
    finally {
        stmt.free();
    }
    return runs;
}
/** Whether the bytes in `hex` are valid UTF-8 (sql.js reads invalid bytes as U+FFFD or as other characters). */
function validUtf8(hex) {
    try {
        new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(hex, 'hex'));
        return true;
    }
    catch {
        return false;
    }
}
/** Newest `created_at` wins; equal instants fall back to run_id so the choice is deterministic. */
function pickRun(rows, file, runId) {
    if (rows.length === 0)
        throw new errors_InputError(`${file}: table \`eval_runs\` has no runs`);
    if (runId !== undefined && runId !== null) {
        // An empty id names no run (`--run ""`, an unset variable): an error, not the newest run in silence.
        const row = rows.find((r) => r.runId === runId);
        if (!row) {
            const runs = rows
                .slice(0, 10)
                .map((r) => inputText_oneLine(r.runId))
                .join(', ');
            const close = suggest_suggest(inputText_oneLine(runId), rows.slice(0, 1000).map((r) => inputText_oneLine(r.runId)));
            throw new errors_InputError(`${file}: no run \`${inputText_oneLine(runId)}\` in \`eval_runs\`${close} (runs: ${runs})`);
        }
        return readable(row, file);
    }
    let best = null;
    let bestTime = -Infinity;
    for (const row of rows) {
        const t = runTime(row.createdAt);
        if (t === null) {
            if (row.refusal !== null)
                readable(row, file);
            throw new errors_InputError(`${file}: table \`eval_runs\`, run \`${inputText_oneLine(row.runId)}\`: created_at ${describe(row.createdAt)} is not an ` +
                `RFC 3339 time (${RUN_TIME_FORM})`);
        }
        if (t > bestTime || (t === bestTime && best !== null && row.runId > best.runId)) {
            best = row;
            bestTime = t;
        }
    }
    return readable(best, file);
}
/** `row`, unless it cannot be read (RunRow.refusal): then an InputError naming it. */
function readable(row, file) {
    if (row.refusal === null)
        return row;
    throw new errors_InputError(`${file}: table \`eval_runs\`, run \`${inputText_oneLine(row.runId)}\`: ${row.refusal}`);
}
/** The JSON columns of the chosen run (the first row of its id), read only now (see listRuns). */
function runJson(db, file, runId) {
    let found = [null, null];
    const label = () => `run ${idText(runId)}`;
    const columns = ['config_snapshot_json', 'aggregate_json'];
    // A number as run_id (a column without TEXT affinity) was listed as its text.
    const tail = " WHERE run_id = ? OR (typeof(run_id) IN ('integer', 'real') AND CAST(run_id AS TEXT) = ?) LIMIT 1";
    forEachRow(db, file, 'eval_runs', columns, tail, [runId, runId], label, (row) => {
        found = row;
    });
    return { configJson: found[0], aggregateJson: found[1] };
}
function runInfoFrom(db, row, file) {
    const where = `${file}: table \`eval_runs\`, run \`${inputText_oneLine(row.runId)}\``;
    const { configJson, aggregateJson } = runJson(db, file, row.runId);
    const config = parseJsonCell(configJson, `${where}, column \`config_snapshot_json\``);
    // Scores are computed afresh (`--write` replaces it); only the golden set it was computed against is read, and
    // malformed JSON is refused as in every column. One past the value bounds (EvalVerdict's own, written for a golden
    // set of thousands of breakdown groups, can be) is not read at all: no recorded golden set, never a refusal.
    const tooLarge = typeof aggregateJson === 'string' &&
        aggregateJson.length >= JSON_SCAN_FROM_CHARS &&
        jsonTextPast(aggregateJson, JSON_VALUE_BOUNDS) !== null;
    const aggregate = tooLarge ? null : parseJsonCell(aggregateJson, `${where}, column \`aggregate_json\``, true);
    const recorded = isObject(aggregate) && isObject(aggregate.evalverdict) ? aggregate.evalverdict.golden : null;
    if (!isObject(config))
        throw new errors_InputError(`${where}, column \`config_snapshot_json\`: must be a JSON object`);
    // A setting as a top-level key (`embedding_model`), else nested at its first underscore, as kebab writes
    // `{"embedding": {"model": ...}}`; the top-level key wins when both are there.
    const str = (key) => {
        let value = config[key];
        if (value === undefined || value === null) {
            const cut = key.indexOf('_');
            const outer = config[key.slice(0, cut)];
            if (isObject(outer))
                value = outer[key.slice(cut + 1)];
        }
        return typeof value === 'string' ? value : value == null || typeof value === 'object' ? null : String(value);
    };
    return {
        runId: row.runId,
        suite: row.suite,
        commitHash: row.commitHash,
        createdAt: row.createdAt,
        config,
        chunkerVersion: str('chunker_version'),
        embeddingModel: str('embedding_model'),
        indexVersion: str('index_version'),
        judgeModel: str('judge_model'),
        judgePromptVersion: str('judge_prompt_version'),
        chunkIndexing: chunkIndexingOf(config.index_stats, `${where}, column \`config_snapshot_json\`, \`index_stats\``),
        // Only EvalVerdict's own form is kept: anything else is no fingerprint of ours.
        recordedGoldenFingerprint: isObject(recorded) &&
            typeof recorded.fingerprint === 'string' &&
            /^sha256:[0-9a-f]{64}$/.test(recorded.fingerprint)
            ? recorded.fingerprint
            : null,
    };
}
/**
 * The indexer's chunk counts (the 001 spec's "chunks attempted / embedded / skipped"), from `index_stats` in the
 * run's config snapshot: `chunks_skipped` and `chunks_attempted` (else embedded + skipped). Null when it has none.
 */
function chunkIndexingOf(stats, where) {
    if (stats === undefined || stats === null)
        return null;
    if (!isObject(stats))
        throw new errors_InputError(`${where}: must be an object of chunk counts, got ${describe(stats)}`);
    const count = (key) => {
        const v = stats[key];
        if (v === undefined || v === null)
            return null;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
            throw new errors_InputError(`${where}: \`${key}\` must be a count (a whole number >= 0), got ${describe(v)}`);
        return v;
    };
    const skipped = count('chunks_skipped');
    const embedded = count('chunks_embedded');
    const attempted = count('chunks_attempted') ?? (embedded !== null && skipped !== null ? embedded + skipped : null);
    if (skipped === null || attempted === null)
        return null;
    if (skipped > attempted)
        throw new errors_InputError(`${where}: \`chunks_skipped\` (${skipped}) is more than \`chunks_attempted\` (${attempted})`);
    return { attempted, skipped };
}
/** Reads one run (default: the newest) with every result parsed into memory, and the optional index tables. */
async function readRunDatabase(file, runId) {
    const db = await openRunDatabase(file);
    try {
        const stream = runStreamFromDb(db, file, runId);
        const results = [];
        stream.forEachResult((r) => results.push(r));
        return { source: stream.source, run: stream.run, chunks: stream.chunks, documents: stream.documents, results };
    }
    finally {
        db.close();
    }
}
/**
 * Opens one run for streaming: the schema, the run row and the index tables are read and checked now; the result
 * rows are parsed one at a time by `forEachResult`, each handed over and then dropped. `release` closes the
 * database and a later `forEachResult` opens the file again, so compare holds one run database in memory at a time.
 */
async function openRunStream(file, runId, range = {}) {
    return (await deferRunStream(file, runId, range))();
}
/**
 * Every run of a database in the order they were written (rowid; by run_id for a table without one) with its suite:
 * what a run option naming several runs (`all`, `all:SUITE`, `a,b,c`) chooses from. The file is read first as
 * openRunStream reads it (its newest run), so a wrong file fails with the reader's message.
 */
async function listRunsIn(file) {
    const SQL = await loadSqlJs();
    openChecked(file).close();
    const db = openRunDatabaseWith(SQL, file);
    try {
        runStreamFromDb(db, file);
        let rows;
        try {
            rows = db.exec('SELECT run_id, suite FROM eval_runs ORDER BY rowid');
        }
        catch {
            rows = db.exec('SELECT run_id, suite FROM eval_runs ORDER BY run_id');
        }
        return (rows[0]?.values ?? []).map((v) => ({ id: String(v[0]), suite: String(v[1] ?? '') }));
    }
    finally {
        db.close();
    }
}
/**
 * openRunStream in two steps: now, the checks that need no database, so a wrong path fails at once; later,
 * synchronously, the opening itself. compare opens the candidate only once the baseline is scored and released.
 */
async function deferRunStream(file, runId, range = {}) {
    const SQL = await sqlite_loadSqlJs();
    openChecked(file).close();
    return () => {
        let db = openRunDatabaseWith(SQL, file);
        let meta;
        // A long chunk text is read when scoring asks for it, from the database open then (opened again if released).
        const currentDb = () => (db ??= openRunDatabaseWith(SQL, file));
        try {
            meta = runStreamFromDb(db, file, runId, currentDb);
        }
        catch (error) {
            db.close();
            throw error;
        }
        const chosen = meta.run.runId;
        const notice = noticeOf();
        return {
            ...meta,
            notice,
            forEachResult(each) {
                db ??= openRunDatabaseWith(SQL, file);
                forEachResultRow(db, file, chosen, each, range, notice);
            },
            release() {
                db?.close();
                db = null;
            },
        };
    };
}
/** The schema checks, the run row, the orphan check and the index tables of `runId` (default: newest). */
function runStreamFromDb(db, file, runId, currentDb = null) {
    const { hasChunks, hasDocuments } = checkSchema(db, file);
    const run = runInfoFrom(db, pickRun(listRuns(db, file), file, runId), file);
    checkNoOrphanResults(db, file);
    // `evalverdict init` and `import trec` create the index tables empty: an empty table means "no index", else every
    // citation would count as broken and every snippet as hallucinated against a table that was never filled.
    const chunks = hasChunks ? readChunks(db, file, currentDb) : null;
    const documents = hasDocuments ? readDocuments(db, file) : null;
    const notice = noticeOf();
    return {
        source: file,
        run,
        chunks: chunks && chunks.size > 0 ? chunks : null,
        documents: documents && documents.size > 0 ? documents : null,
        notice,
        forEachResult: (each) => forEachResultRow(db, file, run.runId, each, {}, notice),
    };
}
/** Refuses results of a run that has no row in eval_runs. */
function checkNoOrphanResults(db, file) {
    const orphan = reading(file, 'eval_query_results', () => db.exec('SELECT substr(run_id, 1, 200), substr(MIN(query_id), 1, 200), COUNT(*) FROM eval_query_results ' +
        'WHERE run_id NOT IN (SELECT run_id FROM eval_runs) GROUP BY run_id ORDER BY run_id LIMIT 6'));
    if (orphan.length === 0 || orphan[0].values.length === 0)
        return;
    const [orphanRun, firstQuery, count] = orphan[0].values[0];
    const others = orphan[0].values.slice(1).map((v) => idText(v[0]));
    const where = `${file}: table \`eval_query_results\`, run ${idText(orphanRun)}, query ${idText(firstQuery)}`;
    throw new errors_InputError(`${where}: the run has no row in \`eval_runs\` (${Number(count)} result(s) for it` +
        `${others.length > 0 ? `; other such runs: ${others.join(', ')}` : ''})`);
}
const RANGE_OPERATORS = [
    ['from', '>='],
    ['after', '>'],
    ['to', '<'],
    ['through', '<='],
];
/** Steps the run's result rows in query_id order (the primary key's order: no sort), parsing each once. */
function forEachResultRow(db, file, runId, each, range = {}, notice = null) {
    const table = 'eval_query_results';
    // SQLite sorts every number below every text, so a range of text bounds would put all numeric query_ids (a
    // column without TEXT affinity) in the first part. Such a run is read whole and its rows kept by String(query_id),
    // the id EvalVerdict matches, compared as SQLite compares text. Otherwise the index seeks the range.
    const hasRange = RANGE_OPERATORS.some(([key]) => range[key] !== undefined);
    const filter = hasRange && reading(file, table, () => hasNonTextQueryIds(db, runId));
    let where = '';
    const params = [runId];
    for (const [key, op] of filter ? [] : RANGE_OPERATORS) {
        const bound = range[key];
        if (bound === undefined)
            continue;
        where += ` AND query_id ${op} ?`;
        params.push(bound);
    }
    const tail = ` WHERE run_id = ?${where} ORDER BY query_id`;
    const label = (row) => `run ${idText(runId)}, query ${idText(row[0])}`;
    forEachRow(db, file, table, ['query_id', 'result_json'], tail, params, label, ([queryId, resultJson]) => {
        if (filter && !inRange(String(queryId), range))
            return;
        each(readResultRow(file, runId, String(queryId), resultJson, notice));
    });
}
/**
 * Whether any query_id of the run is a number or a BLOB, by two seeks of the primary key's index: numbers sort
 * below the empty text, BLOBs above every text (NULL is neither).
 */
function hasNonTextQueryIds(db, runId) {
    const found = db.exec("SELECT EXISTS (SELECT 1 FROM eval_query_results WHERE run_id = ? AND query_id < '') " +
        "OR EXISTS (SELECT 1 FROM eval_query_results WHERE run_id = ? AND query_id >= x'')", [runId, runId]);
    return Number(found[0]?.values[0]?.[0] ?? 0) === 1;
}
/** Chunk texts longer than this (in bytes) are read when asked for, not kept (see readChunks). */
const KEPT_TEXT_BYTES = 64 << 10;
/**
 * The chunks table. A text of KEPT_TEXT_BYTES or less is kept; a longer one (up to MAX_VALUE_BYTES) is read from the
 * database each time `text` is read, by rowid and chunk_id, when `currentDb` gives the database then (a stream),
 * so memory follows the largest text, not the table (bench/README.md, "What was kept"). Without it (the
 * database is closed after reading), or for a table without rowid, every text is kept.
 */
function readChunks(db, file, currentDb) {
    const chunks = new Map();
    const lazy = currentDb !== null && hasRowid(db);
    const shortText = `CASE WHEN octet_length(text) > ${KEPT_TEXT_BYTES} THEN NULL ELSE text END`;
    const columns = lazy
        ? [...COLUMNS.chunks.map((c) => (c === 'text' ? shortText : c)), 'octet_length(text)', 'rowid']
        : COLUMNS.chunks;
    const label = (row) => `chunk ${idText(row[0])}`;
    forEachRow(db, file, 'chunks', columns, '', null, label, (row) => {
        const [chunkId, docId, text, headingJson, spansJson, tokens, version, textBytes, rowid] = row;
        const where = `${file}: table \`chunks\`, chunk ${idText(chunkId)}`;
        if (typeof textBytes === 'number' && textBytes > MAX_VALUE_BYTES) {
            throw new errors_InputError(`${where}: column \`text\` holds ${mib(textBytes)}, more than the ${mib(MAX_VALUE_BYTES)} EvalVerdict reads in one value`);
        }
        const heading = parseJsonCell(headingJson, `${where}, column \`heading_path_json\``);
        const spans = parseJsonCell(spansJson, `${where}, column \`source_spans_json\``);
        // A count of tokens (chunk_tokens_* metrics): text such as 'many' is refused, not read as NaN.
        if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0) {
            const got = tokens === null ? 'NULL' : tokens instanceof Uint8Array ? 'a BLOB' : describe(tokens);
            throw new errors_InputError(`${where}, column \`token_estimate\`: must be a number >= 0, got ${got}`);
        }
        const record = {
            chunkId: String(chunkId),
            docId: String(docId),
            text: String(text ?? ''),
            headingPath: Array.isArray(heading)
                ? mapPacked(heading, String)
                : typeof heading === 'string'
                    ? splitHeadingPath(heading)
                    : [],
            spans: parseSpans(spans),
            tokenEstimate: tokens,
            chunkerVersion: String(version ?? ''),
        };
        if (lazy && text === null && typeof textBytes === 'number') {
            const id = String(chunkId);
            Object.defineProperty(record, 'text', {
                get: () => readChunkText(currentDb(), file, rowid, id),
                enumerable: true,
            });
        }
        chunks.set(record.chunkId, record);
    });
    return chunks;
}
/** Whether the chunks table has a rowid (not WITHOUT ROWID) under that name. */
function hasRowid(db) {
    try {
        db.prepare('SELECT rowid FROM chunks LIMIT 0').free();
        return true;
    }
    catch {
        return false;
    }
}
/** One chunk's text by rowid, checked against its chunk_id (a column named rowid could shadow it): '' if gone. */
function readChunkText(db, file, rowid, chunkId) {
    let text = '';
    const sql = `CASE WHEN octet_length(text) > ${MAX_VALUE_BYTES} THEN NULL ELSE text END`;
    reading(file, 'chunks', () => {
        const stmt = db.prepare(`SELECT ${sql} FROM chunks WHERE rowid = ? AND (chunk_id = ? OR CAST(chunk_id AS TEXT) = ?)`);
        try {
            stmt.bind([rowid, chunkId, chunkId]);
            if (stmt.step())
                text = String(stmt.get()[0] ?? '');
        }
        finally {
            stmt.free();
        }
    });
    return text;
}
/** Spans come as `[{start_line, end_line}]`, `[{start, end, path?}]` or `[[start, end]]`; other shapes give none. */
function parseSpans(raw) {
    if (!Array.isArray(raw))
        return [];
    const spans = [];
    for (const s of raw) {
        if (Array.isArray(s) && typeof s[0] === 'number' && typeof s[1] === 'number') {
            spans.push({ path: null, start: s[0], end: s[1] });
        }
        else if (isObject(s)) {
            const start = typeof s.start_line === 'number' ? s.start_line : s.start;
            const end = typeof s.end_line === 'number' ? s.end_line : s.end;
            if (typeof start === 'number' && typeof end === 'number') {
                spans.push({ path: typeof s.path === 'string' ? s.path : null, start, end });
            }
        }
    }
    return spans;
}
function readDocuments(db, file) {
    const documents = new Map();
    const label = (row) => `document ${idText(row[0])}`;
    forEachRow(db, file, 'documents', COLUMNS.documents, '', null, label, ([docId, path]) => {
        documents.set(String(docId), { docId: String(docId), workspacePath: String(path ?? '') });
    });
    return documents;
}
/** a - b in SQLite's order of TEXT (BINARY: UTF-8 bytes), which UTF-16 order matches for ASCII. */
function compareUtf8(a, b) {
    if (/^[\x00-\x7f]*$/.test(a) && /^[\x00-\x7f]*$/.test(b))
        return a < b ? -1 : a > b ? 1 : 0;
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
function inRange(id, range) {
    if (range === undefined)
        return true;
    return ((range.from === undefined || compareUtf8(id, range.from) >= 0) &&
        (range.after === undefined || compareUtf8(id, range.after) > 0) &&
        (range.to === undefined || compareUtf8(id, range.to) < 0) &&
        (range.through === undefined || compareUtf8(id, range.through) <= 0));
}

;// CONCATENATED MODULE: ./src/aggregate/score.ts




/** The options with the golden set's metric profile, when its header names one (it wins over the options'). */
function score_withGoldenProfile(options, golden) {
    return golden.profile === undefined || golden.profile === options.profile
        ? options
        : { ...options, profile: golden.profile };
}
const DEFAULT_OPTIONS = {
    ks: [1, 3, 5, 10],
    mrrCutoff: 10,
    ndcgGain: 'linear',
    minGrade: 1,
    meanOver: 'default',
    chunkMatch: 'exact',
    referenceChunks: null,
};
/**
 * The most hits of one result that are scored: the first by rank. A runner returns its top k, and a cutoff k is at
 * most 1,000, so no run under the cap scores differently; past it, the hits only cost time (every hit is matched
 * against every expectation) and are dropped before scoring, for every metric (MAP and bpref read every rank).
 */
const MAX_HITS_PER_QUERY = 10_000;
/** The most citations of one answer that are read, in their order (each is resolved and matched like a hit). */
const MAX_CITATIONS_PER_ANSWER = 10_000;
/** The caps as the warnings name them. */
const score_CAPS_TEXT = `${MAX_HITS_PER_QUERY.toLocaleString('en-US')} hits or ${MAX_CITATIONS_PER_ANSWER.toLocaleString('en-US')} answer citations`;
/**
 * `result` with at most MAX_HITS_PER_QUERY hits (the first by rank: `hits` is in rank order) and
 * MAX_CITATIONS_PER_ANSWER citations; `result` itself when it is within both.
 */
function withinWorkCaps(result) {
    const answer = result.answer;
    const hitsOver = result.hits.length > MAX_HITS_PER_QUERY;
    const citationsOver = answer !== null && answer.citations.length > MAX_CITATIONS_PER_ANSWER;
    if (!hitsOver && !citationsOver)
        return result;
    return {
        ...result,
        hits: hitsOver ? result.hits.slice(0, MAX_HITS_PER_QUERY) : result.hits,
        answer: citationsOver ? { ...answer, citations: answer.citations.slice(0, MAX_CITATIONS_PER_ANSWER) } : answer,
    };
}
/** The results of `run` one at a time, whether they are in memory or streamed from a database. */
function score_resultsOf(run) {
    if ('forEachResult' in run)
        return run;
    return {
        ...run,
        forEachResult: (each) => {
            for (const r of run.results)
                each(r);
        },
    };
}
/**
 * Scores every result against the golden set as it is read (one pass, the hits dropped after each query) and hands
 * each golden query's record to `sink` with the query's index, then gives golden queries the run has no result
 * for a record of their own (a miss with no answer). A later result for the same query replaces an earlier one.
 * Without `collectResultIds`, `resultIds` stays empty.
 */
function score_scoreEach(run, golden, options, sink, range, collectResultIds = true) {
    const stream = score_resultsOf(run);
    const indexOf = new Map();
    golden.queries.forEach((q, i) => {
        indexOf.set(q.id, i);
    });
    const scored = new Uint8Array(golden.queries.length);
    const unknownResultIds = [];
    const duplicateResultIds = [];
    const cappedResultIds = [];
    const resultIds = new Set();
    const chunkerVersions = new Set();
    let hitsHaveCitations = false;
    let lastVersion = null;
    const citations = new CitationIndex(stream.chunks, stream.documents);
    const matchOptions = {
        minGrade: options.minGrade,
        chunkMatch: options.chunkMatch,
        referenceChunks: options.referenceChunks ?? stream.chunks,
        runChunks: stream.chunks,
        lowerTexts: new FoldedTexts((text) => text.toLowerCase()),
    };
    stream.forEachResult((read) => {
        const result = withinWorkCaps(read);
        if (collectResultIds)
            resultIds.add(result.queryId); // a ScoredRun's; a table has no use for them
        for (const h of result.hits) {
            // Hits of one run nearly always carry one version: skip the set for a repeat of the last one.
            const version = h.chunkerVersion;
            if (version !== null && version !== lastVersion)
                chunkerVersions.add((lastVersion = version));
            if (!hitsHaveCitations && h.citation !== null)
                hitsHaveCitations = true;
        }
        const i = indexOf.get(result.queryId);
        if (i === undefined) {
            unknownResultIds.push(result.queryId);
            return;
        }
        const q = golden.queries[i];
        if (result !== read)
            cappedResultIds.push(result.queryId);
        if (scored[i] === 1)
            duplicateResultIds.push(result.queryId);
        scored[i] = Math.min(scored[i] + 1, 2); // 2: repeated, listed once
        sink(i, scoreQuery(q, result, new QueryMatcher(q, matchOptions), citations, stream));
    });
    golden.queries.forEach((q, i) => {
        if (!scored[i] && inRange(q.id, range))
            sink(i, scoreQuery(q, null, new QueryMatcher(q, matchOptions), citations, stream));
    });
    return {
        run: { source: stream.source, run: stream.run, chunks: stream.chunks, documents: stream.documents },
        unknownResultIds,
        duplicateResultIds,
        resultIds,
        hitChunkerVersions: [...chunkerVersions].sort(),
        hitsHaveCitations,
        cappedResultIds,
    };
}
/**
 * Part of a run's results by query_id, as SQLite orders query_id (by UTF-8 bytes): `from` and `through` inclusive,
 * `after` and `to` exclusive. Two threads score a large run in such parts.
 */
/** Every golden query's record, non-pending and pending apart, in golden-set order (see scoreEach). */
function scoreRun(run, golden, options = DEFAULT_OPTIONS) {
    const byGolden = new Array(golden.queries.length);
    options = score_withGoldenProfile(options, golden);
    const info = score_scoreEach(run, golden, options, (i, record) => {
        byGolden[i] = record;
    });
    const records = [];
    const pendingRecords = [];
    golden.queries.forEach((q, i) => {
        (q.pending ? pendingRecords : records).push(byGolden[i]);
    });
    return { ...info, golden, options, records, pendingRecords };
}
const score_scratch = [];
const NO_HITS = [];
function scoreQuery(q, result, matcher, citations, run) {
    const hits = result?.hits ?? NO_HITS;
    const candidates = new Array(hits.length);
    const ranks = new Array(hits.length); // not an Int32Array: those cost several times more to make
    const docIds = new Array(hits.length);
    for (let i = 0; i < hits.length; i++) {
        candidates[i] = candidateFromHit(hits[i], run.chunks);
        ranks[i] = hits[i].rank;
        docIds[i] = candidates[i].docId;
    }
    const vec = relevanceVector(matcher, candidates, ranks);
    const refused = isRefusal(result);
    const answer = result?.answer ?? null;
    const answered = answer !== null && refused === false;
    // Citations look hits up by chunk_id and path: through a Map past a few hits (QueryHits).
    const hitLookup = answer !== null && answer.citations.length > 0 ? new QueryHits(hits) : null;
    const cited = citedFacts(q, answer, hitLookup, matcher, citations);
    // Folded only for the queries whose check reads it (gold_claim).
    const textFolded = answer && q.goldClaim !== null ? foldText(answer.text) : '';
    const snippets = run.chunks ? snippetCounts(hits, run.chunks, citations) : NO_SNIPPETS;
    const scopeMiss = scopeMissOf(q, result);
    const recencyCorrect = recencyCorrectOf(q, answered, answer, cited);
    return {
        golden: q,
        result: result === null ? null : summaryOf(result),
        expectations: matcher.expectations, // the matcher is this query's alone (scoreEach makes one per query)
        hasExpectations: matcher.hasExpectations,
        vec,
        expectedDocFirstRank: expectedDocFirstRanks(q.expectedDocIds, docIds, ranks),
        refused,
        answered,
        citedRelevant: cited.relevant,
        citationsResolve: answer && answered && answer.grounded
            ? answer.citations.length > 0 && answer.citations.every((c) => citations.resolves(c, hitLookup))
            : null,
        groundedText: groundedText(q, result),
        claimFound: q.goldClaim !== null ? answered && containsFolded(textFolded, q.goldClaim) : null,
        recencyCorrect,
        ...snippets,
        scopeMiss,
        lineCitationsCorrect: q.expectedLines !== null && vec.firstRelevantRank > 0 ? lineCitationsCorrect(q.expectedLines, hits) : null,
        chunkMatch: matcher.chunkMatch,
    };
}
/** Whether a folder-scoped search left out every gold support's folder; null where no scope or no support. */
function scopeMissOf(q, result) {
    if (result && (result.folderMode === 'on' || result.folderMode === 'on_with_fallback') && q.goldSupports.length > 0) {
        return !q.goldSupports.some((s) => underSomeFolder(s.relPath, result.selectedFolders));
    }
    return null;
}
/** Whether the answer cited the sides its recency-conflict rule asks for; null for a query with no such rule. */
function recencyCorrectOf(q, answered, answer, cited) {
    if (!q.recencyConflictRule)
        return null;
    // cite_newer: the newer support and no older one; cite_both / acknowledge_both: at least one of each side.
    const correct = answered && (q.recencyConflictRule === 'cite_newer' ? cited.newer && !cited.older : cited.newer && cited.older);
    // 001: acknowledge_both "must acknowledge conflict and cite both": a result that says it did not fails; one
    // that does not say is judged by its citations alone.
    if (q.recencyConflictRule === 'acknowledge_both' && answer?.conflictAcknowledged === false)
        return false;
    return correct;
}
/**
 * kebab's groundedness (000, p5-2): over RAG answers excluding errors, so a refusal counts (and fails a
 * must_contain it lacks) and an errored or timed-out result does not; strings are matched exactly, as kebab's
 * `contains` does. Null for a query with neither must_contain nor forbidden (nothing to check).
 */
function groundedText(q, result) {
    const answer = result?.answer;
    if (!answer || result.status !== 'ok' || (q.mustContain.length === 0 && q.forbidden.length === 0))
        return null;
    const text = answer.text;
    return q.mustContain.every((m) => text.includes(m)) && !q.forbidden.some((f) => text.includes(f));
}
/** Whether the answer cites a relevant expectation, and a newer and an older gold support (`hits`: null without citations). */
function citedFacts(q, answer, hits, matcher, citations) {
    const cited = { relevant: false, newer: false, older: false };
    if (!answer)
        return cited;
    const exps = matcher.expectations;
    for (const c of answer.citations) {
        for (const e of matcher.match(citations.candidateFor(c, hits), score_scratch)) {
            if (exps[e].grade >= matcher.options.minGrade)
                cited.relevant = true;
            if (exps[e].kind === 'support') {
                if (q.goldSupports[exps[e].supportIndex].newer)
                    cited.newer = true;
                else
                    cited.older = true;
            }
        }
    }
    return cited;
}
/** Every hit whose line citation names `expected.file` cites lines overlapping the expected range. */
function lineCitationsCorrect(expected, hits) {
    for (const h of hits) {
        const c = h.citation;
        if (c !== null && c.path === expected.file && (c.end < expected.start || expected.end < c.start))
            return false;
    }
    return true;
}
const NO_SNIPPETS = { hitsWithSnippet: 0, hitsSnippetMissing: 0, hallucinationReason: null };
/** Hits with a snippet, those whose snippet is not in their chunk's text, and why the first of those is. */
function snippetCounts(hits, chunks, citations) {
    let hitsWithSnippet = 0;
    let hitsSnippetMissing = 0;
    let hallucinationReason = null;
    for (const h of hits) {
        if (!h.snippet || h.snippet.trim() === '')
            continue;
        hitsWithSnippet++;
        const chunk = h.chunkId !== null ? chunks.get(h.chunkId) : undefined;
        if (!chunk || !citations.folded.of(chunk).includes(foldText(h.snippet))) {
            hitsSnippetMissing++;
            hallucinationReason ??= chunk ? 'snippet_not_found' : 'chunk_missing';
        }
    }
    return { hitsWithSnippet, hitsSnippetMissing, hallucinationReason };
}
/**
 * `path` lies under one of `folders` (trailing slashes ignored; `''` and `.` are the root). Without a regex or a
 * new string per folder unless one ends with a slash: scope is checked for every query of a run.
 */
function underSomeFolder(path, folders) {
    for (let f of folders) {
        if (f.charCodeAt(f.length - 1) === SLASH)
            f = f.replace(/\/+$/, '');
        if (f === '' ||
            f === '.' ||
            path === f ||
            (path.length > f.length && path.charCodeAt(f.length) === SLASH && path.startsWith(f)))
            return true;
    }
    return false;
}
const SLASH = 0x2f;
function summaryOf(r) {
    return {
        queryId: r.queryId,
        query: r.query,
        mode: r.mode,
        hitCount: r.hits.length,
        answer: r.answer,
        elapsedMs: r.elapsedMs,
        error: r.error,
        status: r.status,
        abstained: r.abstained,
        timingsMs: r.timingsMs,
        costUsd: r.costUsd,
        folderMode: r.folderMode,
        selectedFolders: r.selectedFolders,
        judge: r.judge,
    };
}

;// CONCATENATED MODULE: ./src/aggregate/table.ts



/** The FirstHitMet and AnyHitMet masks of one record (expectations past the 32nd are not in them). */
function metMasks(record, minGrade) {
    const { vec, expectations } = record;
    const first = vec.firstRelevantRank;
    let firstMask = 0;
    let anyMask = 0;
    const n = Math.min(32, expectations.length);
    for (let e = 0; e < n; e++) {
        const rank = vec.expectationFirstRank[e];
        if (rank === 0 || expectations[e].grade < minGrade)
            continue;
        anyMask |= 1 << e;
        if (rank === first)
            firstMask |= 1 << e;
    }
    return [firstMask >>> 0, anyMask >>> 0];
}
/**
 * The most `timings_ms` stages measured in one run: those whose names sort first (so which ones does not depend
 * on the order the results are read in, or on how many threads read them). Each stage is two metrics and a column
 * per query: without a cap, many thousands of names cost minutes and gigabytes (bench/README.md, "What was kept").
 * The timings of the rest are counted and warned of.
 */
const table_MAX_STAGES_PER_RUN = 64;
const tri = (b) => (b === null ? -1 : b ? 1 : 0);
/**
 * Writes records into a table row by row, each as soon as it is scored, so no record has to be kept. Rows are the
 * golden queries in order, non-pending and pending apart. Stage timings (the raw `timings_ms`) are collected as
 * stages appear and become columns at the end, so a stage pushed out by MAX_STAGES_PER_RUN costs only what it held;
 * a record that replaces an earlier one for the same query takes the earlier one's timings away, and a stage no
 * record times any more is no stage of the run.
 */
class TableWriter {
    golden;
    queries = [];
    pendingQueries = [];
    rowOf;
    /** The column key and per-query function of every metric but the per-stage ones. */
    fns;
    main;
    pending;
    facts;
    pendingHasResult;
    /** The stages measured so far, in name order: at most MAX_STAGES_PER_RUN. */
    keptStages = [];
    ignoredStageTimings = 0;
    /** `spareRows`: room after the non-pending rows' values for rows joined later (joinHalfTables). */
    options;
    constructor(golden, options, spareRows = 0) {
        this.golden = golden;
        this.options = score_withGoldenProfile(options, golden);
        this.rowOf = new Int32Array(golden.queries.length);
        golden.queries.forEach((q, i) => {
            const rows = q.pending ? this.pendingQueries : this.queries;
            this.rowOf[i] = rows.length;
            rows.push(q);
        });
        this.fns = [...perQueryFunctions(registry_buildMetricTable(this.options, []))];
        const side = (n, spare) => ({
            arrays: this.fns.map(() => new Float64Array(n + spare).subarray(0, n)),
            stages: new Map(),
            written: new Uint8Array(n),
            n,
            spare,
        });
        this.main = side(this.queries.length, spareRows);
        this.pending = side(this.pendingQueries.length, 0);
        const n = this.queries.length;
        this.facts = {
            hasResult: new Uint8Array(n),
            hasExpectations: new Uint8Array(n),
            firstRelevantRank: new Int32Array(n),
            refused: new Int8Array(n),
            groundedText: new Int8Array(n),
            judgeGroundedness: new Float64Array(n),
            judgeCorrectness: new Float64Array(n),
            hitsReturned: new Int32Array(n),
            citedRelevant: new Uint8Array(n),
            lineCitationsCorrect: new Int8Array(n),
            hitsSnippetMissing: new Int32Array(n),
            chunkMatch: new Uint8Array(n),
            firstHitMet: new Uint32Array(n),
            anyHitMet: new Uint32Array(n),
        };
        this.pendingHasResult = new Uint8Array(this.pendingQueries.length);
    }
    /** The record of golden query `index`. */
    add(index, record) {
        const isPending = record.golden.pending;
        const at = isPending ? this.pending : this.main;
        const row = this.rowOf[index];
        // Every metric of one record at once: its data stays in cache while ~70 metrics read it.
        const fns = this.fns;
        for (let m = 0; m < fns.length; m++) {
            const v = fns[m][1](record);
            at.arrays[m][row] = v === null ? NaN : v;
        }
        if (at.written[row])
            for (const stage of at.stages.values())
                dropRow(stage, row);
        at.written[row] = 1;
        if (record.result) {
            const timings = record.result.timingsMs;
            for (const name of Object.keys(timings)) {
                let stage = at.stages.get(name);
                if (stage === undefined) {
                    if (!this.admitStage(name)) {
                        this.ignoredStageTimings++;
                        continue;
                    }
                    at.stages.set(name, (stage = { rows: [], values: [] }));
                }
                stage.rows.push(row);
                stage.values.push(timings[name]);
            }
        }
        if (isPending) {
            this.pendingHasResult[row] = record.result === null ? 0 : 1;
            return;
        }
        const facts = this.facts;
        facts.hasResult[row] = record.result === null ? 0 : 1;
        facts.hasExpectations[row] = record.hasExpectations ? 1 : 0;
        facts.firstRelevantRank[row] = record.vec.firstRelevantRank;
        facts.refused[row] = tri(record.refused);
        facts.groundedText[row] = tri(record.groundedText);
        facts.judgeGroundedness[row] = record.result?.judge?.groundedness ?? NaN;
        facts.judgeCorrectness[row] = record.result?.judge?.correctness ?? NaN;
        facts.hitsReturned[row] = record.result?.hitCount ?? 0;
        facts.citedRelevant[row] = record.citedRelevant ? 1 : 0;
        facts.lineCitationsCorrect[row] = tri(record.lineCitationsCorrect);
        facts.hitsSnippetMissing[row] = record.hitsSnippetMissing;
        facts.chunkMatch[row] = record.chunkMatch;
        [facts.firstHitMet[row], facts.anyHitMet[row]] = metMasks(record, this.options.minGrade);
    }
    /** Whether stage `name` is measured: one of the first MAX_STAGES_PER_RUN names in name order seen so far. */
    admitStage(name) {
        const kept = this.keptStages;
        if (kept.length === table_MAX_STAGES_PER_RUN) {
            const last = kept[kept.length - 1];
            if (name >= last)
                return name === last; // `last` may be timed on the other side only
            kept.pop();
            for (const at of [this.main, this.pending]) {
                this.ignoredStageTimings += at.stages.get(last)?.rows.length ?? 0;
                at.stages.delete(last);
            }
        }
        let i = kept.length;
        while (i > 0 && kept[i - 1] > name)
            i--;
        if (kept[i - 1] !== name)
            kept.splice(i, 0, name);
        return true;
    }
    table(info) {
        const stagesIn = (at) => [...at.stages].filter(([, stage]) => stage.rows.length > 0).map(([n]) => n);
        const recordStages = stagesIn(this.main).sort();
        const allStages = [...new Set([...recordStages, ...stagesIn(this.pending)])].sort();
        const columnsFor = (at) => {
            const columns = new Map(this.fns.map(([key], m) => [key, at.arrays[m]]));
            for (const name of allStages) {
                // Room after the rows for a second half's values (joinHalfTables), as the metric columns have.
                const column = new Float64Array(at.n + at.spare).fill(NaN, 0, at.n).subarray(0, at.n);
                const stage = at.stages.get(name);
                if (stage)
                    for (let i = 0; i < stage.rows.length; i++)
                        column[stage.rows[i]] = stage.values[i];
                columns.set(perQueryValues_quantityKey(`timings_ms.${name}`), column);
            }
            return columns;
        };
        return {
            ...info,
            golden: this.golden,
            options: this.options,
            queries: this.queries,
            pendingQueries: this.pendingQueries,
            recordStages,
            allStages,
            columns: columnsFor(this.main),
            pendingColumns: columnsFor(this.pending),
            facts: this.facts,
            pendingHasResult: this.pendingHasResult,
            ignoredStageTimings: this.ignoredStageTimings,
        };
    }
}
/** Takes row `row`'s timing out of `stage`: the last one added, unless a result repeats out of order. */
function dropRow(stage, row) {
    const at = stage.rows[stage.rows.length - 1] === row ? stage.rows.length - 1 : stage.rows.lastIndexOf(row);
    if (at < 0)
        return;
    stage.rows.splice(at, 1);
    stage.values.splice(at, 1);
}
/** The table of a run already scored into records (the library's scoreRun): the same table scoreToTable writes. */
function tabulate(scored) {
    const writer = new TableWriter(scored.golden, scored.options);
    let row = 0;
    let pendingRow = 0;
    scored.golden.queries.forEach((q, i) => {
        writer.add(i, q.pending ? scored.pendingRecords[pendingRow++] : scored.records[row++]);
    });
    const { resultIds: _ids, golden: _golden, options: _options, records: _records, pendingRecords: _pending, ...info } = scored;
    return writer.table(info);
}
/**
 * A run scored straight into its table: each record's values are written as soon as it is scored and the record is
 * dropped, so no record outlives its query (the same table as `tabulate(scoreRun(...))`, tested). Keeping a
 * hundred thousand records until the end made the young-generation collector copy each of them, most of the time
 * garbage collection took. A part of a run (`range`) writes rows only for its own queries.
 */
function table_scoreToTable(run, golden, options, range, spareRows = 0) {
    const writer = new TableWriter(golden, options, spareRows);
    const { resultIds: _ids, ...info } = score_scoreEach(run, golden, options, (i, record) => writer.add(i, record), range, false);
    return writer.table(info);
}
function tableTransfer(table) {
    const { run: _run, golden: _golden, options: _options, queries: _queries, pendingQueries: _pending, ...rest } = table;
    const message = { ...rest, columns: [...table.columns], pendingColumns: [...table.pendingColumns] };
    const buffers = new Set();
    for (const [, column] of [...message.columns, ...message.pendingColumns])
        buffers.add(column.buffer);
    for (const array of [...Object.values(message.facts), message.pendingHasResult])
        buffers.add(array.buffer);
    return { message, transfer: [...buffers] };
}
/**
 * A worker's table joined to this thread's reading of the same run and golden set: the rows are the golden
 * queries in order, non-pending and pending apart, exactly as the worker's records were.
 */
function tableFromTransfer(message, run, golden, options) {
    const queries = [];
    const pendingQueries = [];
    for (const q of golden.queries)
        (q.pending ? pendingQueries : queries).push(q);
    if (queries.length !== message.facts.hasResult.length || pendingQueries.length !== message.pendingHasResult.length) {
        throw new Error('scoring worker: its table does not match the golden set read here');
    }
    return {
        ...message,
        run,
        golden,
        options: withGoldenProfile(options, golden),
        queries,
        pendingQueries,
        columns: new Map(message.columns),
        pendingColumns: new Map(message.pendingColumns),
    };
}

;// CONCATENATED MODULE: ./src/aggregate/aggregate.ts
/** computeAggregate: every metric of one run, overall and broken down. Pure: data in, plain object out. */






function summariseRun(run) {
    const versions = run.chunks ? [...new Set([...run.chunks.values()].map((c) => c.chunkerVersion))].sort() : [];
    return {
        run_id: run.run.runId,
        suite: run.run.suite,
        commit_hash: run.run.commitHash,
        created_at: run.run.createdAt,
        chunker_version: run.run.chunkerVersion,
        chunker_versions: versions,
        embedding_model: run.run.embeddingModel,
        index_version: run.run.indexVersion,
        judge_model: run.run.judgeModel,
        judge_prompt_version: run.run.judgePromptVersion,
        recorded_golden_fingerprint: run.run.recordedGoldenFingerprint ?? null,
    };
}
function metricsFor(defs, values, run, includeRunLevel, indexes) {
    const out = {};
    for (const def of defs) {
        if (def.runLevel && !includeRunLevel)
            continue;
        out[def.id] = values.evaluate(def, run, indexes);
    }
    return out;
}
function aggregate_groupQueries(queries) {
    let groups = groupsCache.get(queries);
    if (!groups)
        groupsCache.set(queries, (groups = groupQueriesOnce(queries)));
    return groups;
}
/** One grouping per query list: compare groups the baseline's queries before the candidate's table arrives. */
const groupsCache = new WeakMap();
function groupQueriesOnce(queries) {
    const groups = {
        category: new Map(),
        difficulty: new Map(),
        tag: new Map(),
        answerable: new Map(),
        vault: new Map(),
    };
    const add = (kind, name, i) => {
        if (name === null || name === '')
            return;
        let list = groups[kind].get(name);
        if (!list)
            groups[kind].set(name, (list = []));
        list.push(i);
    };
    for (let i = 0; i < queries.length; i++) {
        const q = queries[i];
        add('category', q.category, i);
        add('difficulty', q.difficulty, i);
        const tags = q.tags;
        if (tags.length === 1)
            add('tag', tags[0], i);
        else if (tags.length > 1)
            for (const tag of new Set(tags))
                add('tag', tag, i); // a tag listed twice counts once
        add('answerable', q.answerable ? 'answerable' : 'unanswerable', i);
        add('vault', q.vault ?? null, i);
    }
    const sorted = {};
    for (const kind of Object.keys(groups)) {
        sorted[kind] = new Map([...groups[kind]]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([name, list]) => [name, Int32Array.from(list)]));
    }
    return sorted;
}
/**
 * The rows `first` then `second` as grouped together: each group's rows of `second` (counted from 0) come after
 * those of `first`, offset by `offset` (the rows of `first`). The same groups as grouping the joined rows.
 */
function concatGroups(first, second, offset) {
    const out = {};
    for (const kind of Object.keys(first)) {
        const names = [...new Set([...first[kind].keys(), ...second[kind].keys()])].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
        out[kind] = new Map(names.map((name) => {
            const a = first[kind].get(name) ?? EMPTY_ROWS;
            const b = second[kind].get(name) ?? EMPTY_ROWS;
            const rows = new Int32Array(a.length + b.length);
            rows.set(a, 0);
            for (let j = 0; j < b.length; j++)
                rows[a.length + j] = b[j] + offset;
            return [name, rows];
        }));
    }
    return out;
}
const EMPTY_ROWS = new Int32Array(0);
/**
 * A run tabulated in two golden halves by two threads, as one table: `first` scored the first half's queries,
 * `second` (sent by the other thread, with its rows' `secondGroups` counted from 0) the second half's, whose ids
 * all sort after the first half's. The rows are the first half's then the second's: the whole golden set's order.
 */
function joinHalfTables(first, second, secondGroups, fingerprint) {
    const rows = first.queries.length;
    const secondRows = second.facts.hasResult.length;
    for (const groups of Object.values(secondGroups)) {
        for (const list of groups.values())
            if (list.some((row) => row >= secondRows))
                throw new Error("joinHalfTables: the second half's groups do not match its table");
    }
    // Each half measured its own first stages in name order; together, the first of both.
    const stages = [...new Set([...first.allStages, ...second.allStages])].sort();
    const cutStages = new Set(stages.splice(MAX_STAGES_PER_RUN).map((name) => quantityKey(`timings_ms.${name}`)));
    let ignoredStageTimings = first.ignoredStageTimings + second.ignoredStageTimings;
    const join = (a, b, aRows, bRows) => {
        const bColumns = new Map(b);
        const out = new Map();
        for (const key of new Set([...a.keys(), ...bColumns.keys()])) {
            if (cutStages.has(key)) {
                for (const column of [a.get(key), bColumns.get(key)])
                    ignoredStageTimings += countValues(column);
                continue;
            }
            const [x, y] = [a.get(key), bColumns.get(key)];
            // Into the room left after the first half's values (scoreToTable's spareRows), else into a new column.
            const inPlace = x !== undefined && x.buffer.byteLength - x.byteOffset >= (aRows + bRows) * 8;
            const column = inPlace
                ? new Float64Array(x.buffer, x.byteOffset, aRows + bRows)
                : new Float64Array(aRows + bRows).fill(NaN, 0, aRows);
            if (x && !inPlace)
                column.set(x, 0);
            if (y)
                column.set(y, aRows);
            else
                column.fill(NaN, aRows); // a part without the column has no values there
            out.set(key, column);
        }
        return out;
    };
    const pendingRows = first.pendingQueries.length;
    const secondPendingRows = second.pendingHasResult.length;
    return {
        run: first.run,
        options: first.options,
        golden: { fingerprint },
        rows: rows + secondRows,
        pendingRows: pendingRows + secondPendingRows,
        groups: concatGroups(aggregate_groupQueries(first.queries), secondGroups, rows),
        columns: join(first.columns, second.columns, rows, secondRows),
        pendingColumns: join(first.pendingColumns, second.pendingColumns, pendingRows, secondPendingRows),
        allStages: stages,
        unknownResultIds: [...first.unknownResultIds, ...second.unknownResultIds],
        duplicateResultIds: [...first.duplicateResultIds, ...second.duplicateResultIds],
        cappedResultIds: [...first.cappedResultIds, ...second.cappedResultIds],
        resultsMatched: resultsMatched(first) + resultsMatched(second),
        ignoredStageTimings,
        chunkMatch: concatBytes(first.facts.chunkMatch, second.facts.chunkMatch),
    };
}
/** Values (not NaN) in `column`, or 0 when there is none. */
function countValues(column) {
    let n = 0;
    if (column)
        for (const v of column)
            if (!Number.isNaN(v))
                n++;
    return n;
}
function concatBytes(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a, 0);
    out.set(b, a.length);
    return out;
}
/** Queries per chunk match mode (matching.ts), null when every one matched exactly. */
function chunkMatchCounts(chunkMatch) {
    const counts = Object.fromEntries(QUERY_CHUNK_MATCHES.map((m) => [m, 0]));
    for (const m of chunkMatch)
        counts[QUERY_CHUNK_MATCHES[m]]++;
    return counts.exact === chunkMatch.length ? null : counts;
}
/** A run's table as the aggregate reads it: its rows counted and grouped. */
function aggregateTableOf(table) {
    return {
        run: table.run,
        options: table.options,
        golden: table.golden,
        rows: table.queries.length,
        pendingRows: table.pendingQueries.length,
        groups: aggregate_groupQueries(table.queries),
        chunkMatch: table.facts.chunkMatch,
        columns: table.columns,
        pendingColumns: table.pendingColumns,
        allStages: table.allStages,
        unknownResultIds: table.unknownResultIds,
        duplicateResultIds: table.duplicateResultIds,
        cappedResultIds: table.cappedResultIds,
        resultsMatched: resultsMatched(table),
        ignoredStageTimings: table.ignoredStageTimings,
    };
}
/** Results of `table` whose query_id the golden set has (pending queries included). */
function resultsMatched(table) {
    let n = 0;
    for (const has of table.facts.hasResult)
        n += has;
    for (const has of table.pendingHasResult)
        n += has;
    return n;
}
/**
 * Results whose query_id the golden set lacks are left out of every metric. When that is every result of a run, the
 * golden file or the ids' form is wrong (ids are compared as exact text: `Q1` is not `q1`), and every metric would
 * quietly read as a miss: that is an input error, not a run that missed everything.
 */
function aggregate_checkResultsMatchGolden(run, matched, unknownIds) {
    if (matched > 0 || unknownIds.length === 0)
        return;
    throw new errors_InputError(`${run.source}: run \`${run.run.runId}\`: none of its ${unknownIds.length} result(s) has a query_id in the golden set ` +
        `(e.g. ${sampleIds(unknownIds)}); query ids are compared as exact text: is it the right golden file, and do the ids match in case and form?`);
}
/** Each id once, sorted: a query with more than one result row is still one unknown query. */
function aggregate_distinctSorted(ids) {
    return [...new Set(ids)].sort();
}
/** The warning for results the golden set does not know (not scored), or null when there are none. */
function unknownResultsWarning(source, runId, unknownIds) {
    if (unknownIds.length === 0)
        return null;
    return `${source}: run \`${runId}\`: results of ${unknownIds.length} query id(s) the golden set does not have are not scored (e.g. ${sampleIds(unknownIds)})`;
}
/** The warning for `timings_ms` stages past MAX_STAGES_PER_RUN, or null when every stage is measured. */
function ignoredStagesWarning(source, runId, ignoredTimings) {
    if (ignoredTimings === 0)
        return null;
    return (`${source}: run \`${runId}\`: more than ${MAX_STAGES_PER_RUN} distinct \`timings_ms\` stages; the first ${MAX_STAGES_PER_RUN} in name order are measured ` +
        `and ${ignoredTimings.toLocaleString('en-US')} timing(s) of the others are ignored`);
}
/**
 * The warning for golden queries with more than one result row, or null when there are none: a run table without
 * kebab's primary key (run_id, query_id) can hold them, and only the last row read is scored.
 */
function duplicateResultsWarning(source, runId, duplicateIds) {
    if (duplicateIds.length === 0)
        return null;
    return (`${source}: run \`${runId}\`: ${duplicateIds.length} query id(s) have more than one row in eval_query_results, and only the last one read is scored (e.g. ${sampleIds(duplicateIds)}); ` +
        'the table should have PRIMARY KEY (run_id, query_id)');
}
/**
 * The warning for results whose hits or citations were cut to the caps (MAX_HITS_PER_QUERY, MAX_CITATIONS_PER_ANSWER),
 * or null when none was: one per run, with the number of queries and the first of their ids.
 */
function cappedResultsWarning(source, runId, cappedIds) {
    if (cappedIds.length === 0)
        return null;
    const ids = aggregate_distinctSorted(cappedIds);
    return (`${source}: run \`${runId}\`: ${ids.length} quer${ids.length === 1 ? 'y has' : 'ies have'} more than ${CAPS_TEXT}; ` +
        `only the first by rank (citations: in order) are scored (e.g. ${JSON.stringify(ids[0])})`);
}
const sampleIds = (ids) => aggregate_distinctSorted(ids)
    .slice(0, 3)
    .map((id) => JSON.stringify(id))
    .join(', ');
const asTable = (scored) => 'records' in scored ? aggregateTableOf(tabulate(scored)) : 'queries' in scored ? aggregateTableOf(scored) : scored;
/** The metric table of a run's aggregate: its stages include those of pending results. */
function metricTableFor(scored) {
    return registry_buildMetricTable(scored.options, ('records' in scored ? asTable(scored) : scored).allStages);
}
function aggregateScored(scored, defs) {
    const table = asTable(scored);
    const { run, golden, options, rows, pendingRows } = table;
    aggregate_checkResultsMatchGolden(run, table.resultsMatched, table.unknownResultIds);
    defs ??= metricTableFor(table);
    const values = new perQueryValues_PerQueryValues(defs, rows, table.columns);
    const breakdowns = {};
    const kinds = Object.entries(table.groups);
    values.sumGroups(defs, kinds.flatMap(([, groups]) => [...groups.values()]));
    for (const [kind, groups] of kinds) {
        if (kind === 'vault' && groups.size === 0)
            continue;
        const byName = Object.create(null); // group names are the input's: `__proto__` too
        for (const [name, indexes] of groups)
            byName[name] = metricsFor(defs, values, run, false, indexes);
        breakdowns[kind] = byName;
    }
    const matchCounts = chunkMatchCounts(table.chunkMatch);
    const report = {
        run: summariseRun(run),
        golden: { fingerprint: golden.fingerprint, queries: rows, pending: pendingRows },
        options: {
            ks: options.ks,
            mrr_cutoff: options.mrrCutoff,
            ndcg_gain: options.ndcgGain,
            min_grade: options.minGrade,
            mean_over: options.meanOver,
            chunk_match: options.chunkMatch,
            ...(options.profile !== undefined && options.profile !== 'evalverdict' ? { profile: options.profile } : {}),
        },
        ...(matchCounts !== null ? { chunk_match_queries: matchCounts } : {}),
        metrics: metricsFor(defs, values, run, true),
        breakdowns,
        unknown_query_ids: aggregate_distinctSorted(table.unknownResultIds),
        duplicate_query_ids: [...table.duplicateResultIds].sort(),
        ...(table.cappedResultIds.length > 0 ? { capped_query_ids: aggregate_distinctSorted(table.cappedResultIds) } : {}),
    };
    if (pendingRows > 0) {
        const pending = new perQueryValues_PerQueryValues(defs, pendingRows, table.pendingColumns);
        report.pending_metrics = metricsFor(defs, pending, run, false);
    }
    const disagreement = report.metrics.judge_disagreement_rate;
    if (disagreement !== undefined && disagreement.n > 0) {
        report.judge_reliability = { disagreement_rate: disagreement.value, spot_check_n: disagreement.n };
    }
    const byType = coverageByDocType(run);
    if (byType !== null)
        report.coverage_by_doc_type = byType;
    return report;
}
/** A document's type: the lower-cased extension of its workspace path (`md`, `pdf`, `go`), or `(none)`. */
function docTypeOf(path) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '(none)';
}
/**
 * The 001 spec's "Coverage by Doc Type": per document type, documents and those with no chunk, and their rate;
 * null without documents and chunks tables.
 */
function coverageByDocType(run) {
    if (!run.documents || !run.chunks || run.documents.size === 0)
        return null;
    const withChunks = new Set();
    for (const c of run.chunks.values())
        withChunks.add(c.docId);
    const out = Object.create(null); // types are the input's
    for (const doc of run.documents.values()) {
        const type = docTypeOf(doc.workspacePath);
        const entry = (out[type] ??= { documents: 0, without_chunks: 0, without_chunks_rate: 0 });
        entry.documents++;
        if (!withChunks.has(doc.docId))
            entry.without_chunks++;
    }
    for (const entry of Object.values(out))
        entry.without_chunks_rate = entry.without_chunks / entry.documents;
    return out;
}
/** Every aggregate metric of `run` (in memory, or streamed: see openRunStream) scored against `golden`. */
function computeAggregate(run, golden, options = {}) {
    return aggregateScored(table_scoreToTable(run, golden, { ...DEFAULT_OPTIONS, ...options }));
}

;// CONCATENATED MODULE: ./src/aggregate/perQuery.ts


/**
 * The label of one question: null when whether it was refused is unknown (no result, or a result with neither an
 * answer nor an abstained flag: a retrieval-only run). `hit` is WFGY's citation hit: the answer cites a relevant id.
 */
function wfgyLabel(answerable, refused, hit) {
    if (refused === null)
        return null;
    if (answerable && !refused && hit)
        return 'OK';
    if (!answerable && refused)
        return 'REFUSAL_OK';
    if (answerable && refused)
        return 'OVER_REFUSAL';
    if (!answerable && !refused)
        return 'HALLUCINATION';
    return 'ANS_NO_HIT';
}
function rowCore(f) {
    const rank = f.firstRelevantRank > 0 ? f.firstRelevantRank : null;
    return {
        first_relevant_rank: rank,
        hits_returned: f.hitsReturned,
        reciprocal_rank: f.hasExpectations ? (rank === null ? 0 : 1 / rank) : null,
        citation_correct: f.lineCitationsCorrect,
        citation_hit: f.refused === null ? null : f.citedRelevant,
        hallucination_count: f.hallucinationCount,
        label: wfgyLabel(f.answerable, f.refused, f.citedRelevant),
    };
}
/** A record's facts for its row; `checksSnippets`: the run has a chunks table. */
function rowFactsOf(r, checksSnippets) {
    return {
        answerable: r.golden.answerable,
        hasExpectations: r.hasExpectations,
        firstRelevantRank: r.vec.firstRelevantRank,
        hitsReturned: r.result?.hitCount ?? 0,
        refused: r.refused,
        citedRelevant: r.citedRelevant,
        lineCitationsCorrect: r.lineCitationsCorrect,
        hallucinationCount: checksSnippets ? r.hitsSnippetMissing : null,
    };
}
/** Row `i` of a scored run's table as a row's facts (the compare report's rows for regressions). */
function rowFactsAt(facts, i, answerable, checksSnippets) {
    const refused = facts.refused[i];
    const citation = facts.lineCitationsCorrect[i];
    return {
        answerable,
        hasExpectations: facts.hasExpectations[i] === 1,
        firstRelevantRank: facts.firstRelevantRank[i],
        hitsReturned: facts.hitsReturned[i],
        refused: refused < 0 ? null : refused === 1,
        citedRelevant: facts.citedRelevant[i] === 1,
        lineCitationsCorrect: citation < 0 ? null : citation === 1,
        hallucinationCount: checksSnippets ? facts.hitsSnippetMissing[i] : null,
    };
}
/** The top hit's chunk_id, else its cited path, else its doc_path, else its doc_id. */
function topHitOf(hits) {
    if (hits.length === 0)
        return null;
    const h = hits[0];
    return { label: h.chunkId ?? h.citation?.path ?? h.docPath ?? h.docId, score: h.score };
}
function perQueryRow(r, checksSnippets, top) {
    return {
        query_id: r.golden.id,
        query: r.golden.query,
        pending: r.golden.pending,
        status: r.result?.status ?? 'missing',
        ...rowCore(rowFactsOf(r, checksSnippets)),
        top_hit: top?.label ?? null,
        top_hit_score: top?.score ?? null,
        hallucination_reason: checksSnippets ? r.hallucinationReason : null,
    };
}
/** The columns of the Markdown, text and CSV tables, in order (the JSON rows have the same keys). */
const PER_QUERY_COLUMNS = (/* unused pure expression or super */ null && ([
    'query_id',
    'query',
    'status',
    'first_relevant_rank',
    'hits_returned',
    'top_hit',
    'top_hit_score',
    'reciprocal_rank',
    'citation_correct',
    'citation_hit',
    'hallucination_count',
    'hallucination_reason',
    'label',
    'pending',
]));
/**
 * One row per golden query, in golden-set order (pending ones in place), each made as its query is scored: the
 * records (and hits) are dropped as aggregate drops them. A run none of whose results the golden set knows is
 * refused, as aggregate refuses it.
 */
function perQueryRows(run, golden, options) {
    const rows = new Array(golden.queries.length);
    const checksSnippets = run.chunks !== null;
    let matched = 0;
    // Scoring drops each result's hits and keeps no top hit (aggregate has no use for one): the top hit of the
    // result being scored is taken as it passes, and the record of that result is handed over before the next.
    const stream = resultsOf(run);
    let top = null;
    const watched = {
        ...stream,
        forEachResult: (each) => stream.forEachResult((result) => {
            top = topHitOf(result.hits);
            each(result);
        }),
    };
    const info = scoreEach(watched, golden, withGoldenProfile(options, golden), (i, record) => {
        if (record.result !== null && rows[i] === undefined)
            matched++;
        rows[i] = perQueryRow(record, checksSnippets, record.result === null ? null : top);
    }, undefined, false);
    checkResultsMatchGolden(info.run, matched, info.unknownResultIds);
    return {
        rows,
        unknownQueryIds: distinctSorted(info.unknownResultIds),
        duplicateQueryIds: [...info.duplicateResultIds].sort(),
        cappedQueryIds: distinctSorted(info.cappedResultIds),
    };
}

;// CONCATENATED MODULE: ./src/stats/random.ts
/**
 * The seeded generator and hash every resampling test draws from, so each p-value is reproducible: mulberry32
 * (Tommy Ettinger, 2017, public domain) and FNV-1a (Fowler, Noll, Vo; IETF draft-eastlake-fnv).
 */
/** mulberry32: a small, well-distributed 32-bit generator; seeded so every p-value is reproducible. */
function random_seededRandom(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
/** A stable 32-bit hash (FNV-1a) so each metric gets its own stream from one seed. */
function hashString(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
        h ^= text.charCodeAt(i);
        h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
}

;// CONCATENATED MODULE: ./src/stats/distributions.ts
/**
 * The distributions the tests read their tails from: Binomial(m, 1/2) exactly (log-factorials summed in one fixed
 * order, so every caller gets the same bits), the standard normal (the erfc approximation of Numerical Recipes,
 * 2nd ed., section 6.2, |error| < 1.2e-7) and Student's t (the Cornish-Fisher expansion, Abramowitz and Stegun
 * 26.7.5).
 */
/** log(i!) for i = 0..n, summed in one fixed order (the power computation shares it). */
function logFactorialTable(n) {
    const t = new Float64Array(n + 1);
    for (let i = 2; i <= n; i++)
        t[i] = t[i - 1] + Math.log(i);
    return t;
}
/** P(X = x) for X ~ Binomial(m, 1/2), x = 0..m. */
function binomialHalf(m) {
    const lf = logFactorialTable(m);
    const pmf = new Float64Array(m + 1);
    for (let x = 0; x <= m; x++)
        pmf[x] = Math.exp(lf[m] - lf[x] - lf[m - x] - m * Math.LN2);
    return pmf;
}
/** Standard normal upper tail, via the complementary error function (Numerical Recipes erfc, |error| < 1.2e-7). */
function normalUpperTail(z) {
    const x = Math.abs(z) / Math.SQRT2;
    const t = 1 / (1 + 0.5 * x);
    const erfc = t *
        Math.exp(-x * x -
            1.26551223 +
            t *
                (1.00002368 +
                    t *
                        (0.37409196 +
                            t *
                                (0.09678418 +
                                    t *
                                        (-0.18628806 +
                                            t *
                                                (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    const upper = erfc / 2;
    return z >= 0 ? upper : 1 - upper;
}
/**
 * Upper-tail point z with P(Z > z) = tail, by bisection on normalUpperTail itself (so the test and it agree). From
 * -40: a tail above 1/2 (an alpha above 0.5) has a negative point.
 */
function normalQuantile(tail) {
    let lo = -40;
    let hi = 40;
    for (let i = 0; i < 200; i++) {
        const mid = (lo + hi) / 2;
        if (normalUpperTail(mid) >= tail)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
/** P(X >= k) for X ~ Binomial(m, 1/2), k = 0..m (and 0 at m + 1), each summed from the top in one fixed order. */
function binomialUpperTails(m) {
    const pmf = binomialHalf(m);
    const upper = new Float64Array(m + 2);
    for (let k = m; k >= 0; k--)
        upper[k] = upper[k + 1] + pmf[k];
    return upper;
}
/** The largest k (at least 0) whose tail `upper[k]` = P(X >= k) reaches `level`: k + 1 losses are significant. */
function largestReaching(upper, level) {
    let k = upper.length - 2;
    while (k > 0 && upper[k] < level)
        k--;
    return k;
}
/**
 * Student's t point with `df` degrees of freedom for the normal point z (Cornish-Fisher, to df^-3: within 0.001 of
 * the exact point from 5 degrees of freedom; smaller, so less conservative, below). Odd and increasing in z, so
 * the p of a t statistic is read back by bisection and agrees with the bounds.
 */
function studentPoint(z, df) {
    const z2 = z * z;
    const g1 = (z2 + 1) / 4;
    const g2 = (5 * z2 * z2 + 16 * z2 + 3) / 96;
    const g3 = (3 * z2 * z2 * z2 + 19 * z2 * z2 + 17 * z2 - 15) / 384;
    return z * (1 + g1 / df + g2 / df ** 2 + g3 / df ** 3);
}
/** The normal point whose Student point (studentPoint) is t: bisection, so p < beta exactly when t > t_beta. */
function normalPointOf(t, df) {
    let lo = -40;
    let hi = 40;
    for (let i = 0; i < 200; i++) {
        const mid = (lo + hi) / 2;
        if (studentPoint(mid, df) <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

;// CONCATENATED MODULE: ./src/stats/signTest.ts
/**
 * The two-sided exact sign test (binomial, p = 1/2; Conover, Practical Nonparametric Statistics, 3rd ed., 3.4) and its
 * critical value: the sign-flip test when every difference has one size (hit@k and other binary metrics).
 */

/** Two-sided exact sign test: P(|X - m/2| >= |k - m/2|), X ~ Binomial(m, 1/2). */
function exactSignTest(positives, m) {
    if (m === 0)
        return 1;
    return signTestTail(binomialHalf(m), positives, m);
}
/** P(|X - m/2| >= |positives - m/2|), summed in one fixed order so that every caller gets the same bits. */
function signTestTail(pmf, positives, m) {
    const dev = Math.abs(positives - m / 2);
    let p = 0;
    for (let x = 0; x <= m; x++)
        if (Math.abs(x - m / 2) >= dev - 1e-9)
            p += pmf[x];
    return Math.min(1, p);
}
/**
 * The sign test's critical |2x - m|: for the fewest positives x (x <= m/2) whose tail reaches alpha. The tail grows
 * with x, so a binary search finds it in O(m log m), with the tail computed exactly as exactSignTest computes it.
 */
function signTestCritical(m, alpha) {
    const pmf = binomialHalf(m);
    let lo = 0;
    let hi = Math.floor(m / 2); // its tail is 1 >= alpha
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (signTestTail(pmf, mid, m) >= alpha)
            hi = mid;
        else
            lo = mid + 1;
    }
    return m - 2 * lo;
}

;// CONCATENATED MODULE: ./src/stats/signFlip.ts
/**
 * Paired significance of candidate - baseline per-query differences: one test, and the interval read off it. The
 * paired randomization test as Smucker, Allan and Carterette compare it for IR evaluation ("A comparison of
 * statistical significance tests for information retrieval evaluation", CIKM 2007).
 *
 * Test: two-sided paired randomization (sign-flip) test of the mean difference. Only non-zero differences
 * can change sign, so zeros are dropped first (identical runs give p = 1). Then, for m non-zero differences:
 * - all differences +-d of one size (binary metrics such as hit@k): the exact sign test (binomial, p = 1/2),
 *   which is the sign-flip distribution computed exactly;
 * - m <= 16: exact enumeration of all 2^m sign patterns;
 * - m <= 2,000: `permutations` random sign flips (default 10,000) from a seeded generator, p = (1 + #{|sum*| >= |sum|}) / (1 + N);
 * - m > 2,000: the normal approximation of the sign-flip distribution (mean 0, variance sum(d^2)), which at
 *   that size agrees with the resampled p-value to the precision we report.
 * Interval: the mean difference (over all paired queries, zeros included) plus or minus the test's critical
 * value at level alpha: the largest |sum| the same null distribution does not call significant, over n. So the
 * interval (level 1 - alpha) excludes 0 exactly when p < alpha: the mark, the p-value and the interval cannot
 * disagree. It is clipped to [min(0, smallest difference), max(0, largest)], where every mean lies. Every branch
 * is deterministic for a given seed.
 */



const EXACT_ENUMERATION_MAX = 16;
const RESAMPLING_MAX = 2000;
/**
 * The critical value from a null distribution of |sum| given as `atoms` sorted from largest down, each with
 * probability 1/`total`, and p(x) = (`extra` + #{atom >= x - tolerance}) / `total`: the largest x with p(x) >= alpha
 * is the k-th largest atom (plus the tolerance), k the fewest atoms that reach alpha.
 */
function criticalFromAtoms(atoms, extra, total, alpha, ceiling) {
    const k = Math.ceil(alpha * total - extra - 1e-12);
    if (k <= 0)
        return ceiling; // p >= alpha whatever the sum: nothing can be significant
    return atoms[k - 1];
}
function descending(values) {
    return values.sort().reverse();
}
function signFlipTest(diffs, permutations, random, alpha) {
    const nonZero = [];
    for (let i = 0; i < diffs.length; i++)
        if (diffs[i] !== 0)
            nonZero.push(diffs[i]);
    const m = nonZero.length;
    if (m === 0)
        return { pValue: 1, critical: 0 };
    const observed = Math.abs(nonZero.reduce((a, b) => a + b, 0));
    const tolerance = 1e-9 * Math.max(1, observed);
    // No |sum| exceeds sum |d|: the critical value when no p can fall below alpha (the tolerance is added below).
    const largest = nonZero.reduce((a, d) => a + Math.abs(d), 0);
    const size = Math.abs(nonZero[0]);
    if (nonZero.every((d) => Math.abs(Math.abs(d) - size) <= 1e-12)) {
        const positives = nonZero.filter((d) => d > 0).length;
        // |sum| = size * |2x - m| for x positives: the largest such value whose tail probability reaches alpha.
        return { pValue: exactSignTest(positives, m), critical: size * signTestCritical(m, alpha) + tolerance };
    }
    if (m > RESAMPLING_MAX) {
        let sumSq = 0;
        for (const d of nonZero)
            sumSq += d * d;
        const sd = Math.sqrt(sumSq);
        return {
            pValue: Math.min(1, 2 * normalUpperTail(observed / sd)),
            critical: normalQuantile(alpha / 2) * sd + tolerance,
        };
    }
    // Two-sided: the null distribution of |sum|.
    const flips = flippedSums(nonZero, permutations, random);
    const test = upperTailTest({ ...flips, sums: flips.sums.map(Math.abs) }, observed, tolerance, largest);
    return { pValue: test.pValue, critical: test.critical(alpha) };
}
/** The sign-flip test's p-value alone. */
function signFlipPValue(diffs, permutations, random) {
    return signFlipTest(diffs, permutations, random, 0.05).pValue;
}
/** Test and interval (level 1 - alpha) for one metric's paired differences. Null when there are none. */
function pairedSignificance(diffs, permutations, seed, alpha = 0.05) {
    const n = diffs.length;
    if (n === 0)
        return null;
    const { pValue, critical } = signFlipTest(diffs, permutations, random_seededRandom(seed), alpha);
    let sum = 0;
    for (let i = 0; i < n; i++)
        sum += diffs[i];
    const mean = sum / n;
    const half = critical / n;
    // A mean of differences lies between the smallest and the largest difference; the bounds keep 0 so that
    // clipping never takes 0 out of an interval that held it.
    let low = 0;
    let high = 0;
    for (let i = 0; i < n; i++) {
        if (diffs[i] < low)
            low = diffs[i];
        if (diffs[i] > high)
            high = diffs[i];
    }
    return { pValue, ci: [Math.max(low, mean - half), Math.min(high, mean + half)], n };
}
/** Every sign pattern's sum for up to EXACT_ENUMERATION_MAX values, else `permutations` random ones. */
function flippedSums(values, permutations, random) {
    return values.length <= EXACT_ENUMERATION_MAX
        ? { sums: enumeratedSums(values), extra: 0 }
        : { sums: resampledSums(values, permutations, random), extra: 1 };
}
/**
 * p = P(sum* >= observed) (within the tolerance) over the flipped sums, and the critical value at any level: the
 * largest sum the test does not call significant (`largest` when nothing can be).
 */
function upperTailTest(flips, observed, tolerance, largest) {
    const { sums, extra } = flips;
    let extreme = 0;
    for (const s of sums)
        if (s >= observed - tolerance)
            extreme++;
    const total = sums.length + extra;
    const atoms = descending(sums);
    return {
        pValue: (extra + extreme) / total,
        critical: (level) => criticalFromAtoms(atoms, extra, total, level, largest) + tolerance,
    };
}
/** Every signed sum of the 2^m sign patterns. */
function enumeratedSums(values) {
    const m = values.length;
    const sums = new Float64Array(2 ** m);
    for (let mask = 0; mask < sums.length; mask++) {
        let s = 0;
        for (let i = 0; i < m; i++)
            s += mask & (1 << i) ? -values[i] : values[i];
        sums[mask] = s;
    }
    return sums;
}
/** `permutations` signed sums of random sign patterns, 32 signs per draw of the seeded generator. */
function resampledSums(values, permutations, random) {
    const sums = new Float64Array(permutations);
    for (let p = 0; p < permutations; p++) {
        let s = 0;
        let bits = 0;
        for (let i = 0; i < values.length; i++) {
            if ((i & 31) === 0)
                bits = (random() * 4294967296) >>> 0;
            s += bits & 1 ? -values[i] : values[i];
            bits >>>= 1;
        }
        sums[p] = s;
    }
    return sums;
}

;// CONCATENATED MODULE: ./src/compare/compare.ts
/**
 * compareRuns: both runs scored against one golden set, every metric and breakdown compared, per-query outcomes
 * and paired significance. No gates: the gate stage (src/gate/gates.ts, applyGates) adds them. Pure: plain data in,
 * plain report out.
 */










const DEFAULT_COMPARE_OPTIONS = {
    ...DEFAULT_OPTIONS,
    strictChunkerVersion: false,
    seed: 20260101,
    permutations: 10_000,
    alpha: 0.05,
};
/** Settings whose difference explains retrieval changes, and those that explain answer changes. */
/**
 * A run's chunker version as its run row or chunks table declares it: config_snapshot_json.chunker_version, else
 * the one version of its chunks table (several: their sorted list, so two mixed indexes still compare unequal).
 * Undefined when neither says, and only the hits can tell.
 */
function declaredChunkerVersion(run) {
    if (run.run.chunkerVersion !== null)
        return run.run.chunkerVersion;
    if (!run.chunks)
        return undefined;
    const versions = new Set();
    for (const c of run.chunks.values())
        versions.add(c.chunkerVersion);
    return [...versions].sort().join(', ');
}
/** A run's chunker version: the declared one, else the one version (or sorted list) its hits carry, else null. */
function chunkerVersionOf(scored) {
    const declared = declaredChunkerVersion(scored.run);
    if (declared !== undefined)
        return declared;
    return scored.hitChunkerVersions.length === 0 ? null : scored.hitChunkerVersions.join(', ');
}
function refuseStrict(baseline, candidate, a, b) {
    throw new errors_InputError(`chunker_version differs (baseline ${baseline.source}: ${a ?? 'unset'}, candidate ${candidate.source}: ${b ?? 'unset'}) and --strict-chunker-version refuses to compare: chunk ids of different chunkers are not comparable`);
}
/**
 * How expected chunk ids were matched when the chunker versions differ, from what each query's matching did
 * (docs/metrics.md, "Chunker versions"): `fallback_doc_span` when some query's expected chunk was matched by span,
 * else `fallback_doc` (by document, or no query could fall back). `chunk_match_queries` says how many did which.
 */
function matchLabel(baseline, candidate) {
    return loosestMatch(baseline, candidate).includes(1) ? 'fallback_doc_span' : 'fallback_doc';
}
/**
 * Per query, the looser of the two runs' match modes: scored with the same tables they agree, but scored exactly
 * each run reads its own table, and an expected chunk only one of them holds is matched by its document in the other.
 */
function loosestMatch(baseline, candidate) {
    const b = baseline.facts.chunkMatch;
    const c = candidate.facts.chunkMatch;
    const out = new Uint8Array(b.length);
    for (let i = 0; i < b.length; i++)
        out[i] = Math.max(b[i], c[i] ?? 0);
    return out;
}
/** Both runs' chunks tables (the baseline's entry where both have an id); empty when neither has one: it finds nothing. */
function mergedChunks(a, b) {
    const merged = new Map(b.chunks ?? []);
    for (const [id, c] of a.chunks ?? [])
        merged.set(id, c);
    return merged;
}
/** The config_snapshot_json keys whose values differ between two runs, sorted. */
function configDifferences(baseline, candidate) {
    const a = baseline.run.config;
    const b = candidate.run.config;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.filter((k) => JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null));
}
function metricComparison(b, c, comparable) {
    const delta = b.value === null || c.value === null ? null : c.value - b.value;
    return {
        baseline: b.value,
        candidate: c.value,
        delta,
        rel_delta: delta === null || b.value === 0 ? null : delta / Math.abs(b.value),
        n: c.n,
        n_baseline: b.n,
        n_paired: null,
        p_value: null,
        ci: null,
        significant: null,
        comparable,
    };
}
const triState = (v) => (v < 0 ? null : v === 1);
const orNull = (v) => (v === v ? v : null);
function sideOf(facts, i) {
    return {
        hasResult: facts.hasResult[i] === 1,
        rank: facts.firstRelevantRank[i] === 0 ? null : facts.firstRelevantRank[i],
        firstHitMet: facts.firstHitMet[i],
        anyHitMet: facts.anyHitMet[i],
        chunkMatch: facts.chunkMatch[i],
        refused: triState(facts.refused[i]),
        citedRelevant: facts.citedRelevant[i] === 1,
        groundedText: triState(facts.groundedText[i]),
        judge: { groundedness: orNull(facts.judgeGroundedness[i]), correctness: orNull(facts.judgeCorrectness[i]) },
    };
}
/** WFGY's labels of a question answered or refused as it should be. */
const GOOD_LABELS = new Set(['OK', 'REFUSAL_OK']);
/** Under `profile: wfgy`, WFGY's per-question label (its report's table) when it changed: OK -> ANS_NO_HIT. */
function labelChange(q, b, c) {
    const before = wfgyLabel(q.answerable, b.refused, b.citedRelevant);
    const after = wfgyLabel(q.answerable, c.refused, c.citedRelevant);
    if (before === null || after === null || before === after)
        return null;
    return { change: `label ${before} -> ${after}`, worse: GOOD_LABELS.has(before) && !GOOD_LABELS.has(after) };
}
/** A query's outcome by the first relevant rank on each side, and whether the baseline's expected chunk went missing. */
function rankOutcome(b, c) {
    const br = b.rank;
    const cr = c.rank;
    let kind;
    if (br === null && cr === null)
        kind = 'draw';
    else if (br === null)
        kind = 'win';
    else if (cr === null)
        kind = 'regression';
    else
        kind = cr < br ? 'win' : cr > br ? 'loss' : 'draw';
    // kebab (000, p5-2): "Regression if a hit but b miss for the same expected chunk": a draw or a loss whose
    // candidate meets none of the expectations the baseline's first relevant hit met is one. Only where both runs
    // built the same expectations (the same match mode) and the baseline's are among a query's first 32.
    const missedSame = (kind === 'draw' || kind === 'loss') &&
        br !== null &&
        b.chunkMatch === c.chunkMatch &&
        b.firstHitMet !== 0 &&
        (b.firstHitMet & c.anyHitMet) === 0;
    return { kind: missedSame ? 'regression' : kind, missedSame };
}
/** The per-query note reports show: each side's rank, miss or missing result. */
function rankNote(hasExpectations, b, c, missedSame) {
    const br = b.rank;
    const cr = c.rank;
    const show = (r, side) => (!side.hasResult ? 'missing' : r === null ? 'miss' : `rank ${r}`);
    let note;
    if (!hasExpectations)
        note = 'no relevance expectations';
    else if (br === null && cr === null)
        note = !b.hasResult || !c.hasResult ? `${show(br, b)} -> ${show(cr, c)}` : 'miss in both';
    else
        note = `${show(br, b)} -> ${show(cr, c)}`;
    if (missedSame)
        note += ", the baseline's expected chunk missed";
    return note;
}
/** How a query's answer changed (refusal, WFGY label, groundedness, judge scores) and whether it got worse. */
function answerChanges(q, b, c, judgeComparable, labels) {
    const changes = [];
    let regression = false;
    if (b.refused !== null && c.refused !== null && b.refused !== c.refused) {
        const worse = q.answerable ? c.refused : !c.refused;
        changes.push(`${b.refused ? 'refused' : 'answered'} -> ${c.refused ? 'refused' : 'answered'}${q.answerable ? '' : ' (should refuse)'}`);
        regression ||= worse;
    }
    const label = labels ? labelChange(q, b, c) : null;
    if (label)
        changes.push(label.change);
    regression ||= label?.worse === true;
    if (b.groundedText !== null && c.groundedText !== null && b.groundedText !== c.groundedText) {
        changes.push(`groundedness ${b.groundedText ? 'pass' : 'fail'} -> ${c.groundedText ? 'pass' : 'fail'}`);
        regression ||= !c.groundedText;
    }
    for (const dim of ['groundedness', 'correctness']) {
        const bs = b.judge[dim];
        const cs = c.judge[dim];
        if (bs === null || cs === null)
            continue;
        const fell = bs >= 4 && cs < 3;
        const rose = bs < 3 && cs >= 4;
        if (fell || rose) {
            changes.push(`judge ${dim} ${bs} -> ${cs}${judgeComparable ? '' : ' (judge settings differ)'}`);
            regression ||= fell && judgeComparable;
        }
    }
    return { changes, regression };
}
function outcomeOf(q, hasExpectations, b, c, judgeComparable, metricDelta, labels) {
    const { kind, missedSame } = rankOutcome(b, c);
    const answer = answerChanges(q, b, c, judgeComparable, labels);
    return {
        query_id: q.id,
        query: q.query,
        kind,
        baseline_rank: b.rank,
        candidate_rank: c.rank,
        metric_delta: metricDelta,
        note: rankNote(hasExpectations, b, c, missedSame),
        answer_changes: answer.changes,
        answer_regression: answer.regression,
    };
}
function pairedDiffs(baseline, candidate, rows = null) {
    const diffs = [];
    const n = rows === null ? baseline.length : rows.length;
    for (let r = 0; r < n; r++) {
        const i = rows === null ? r : rows[r];
        const b = baseline[i];
        const c = candidate[i];
        if (b !== b || c !== c)
            continue; // NaN: not in that side's mean
        diffs.push(c - b);
    }
    return Float64Array.from(diffs);
}
/** What a run's per-query values depend on besides the run: the metrics' stages and options. */
function valuesKey(options, stages) {
    return JSON.stringify([
        stages,
        options.ks,
        options.mrrCutoff,
        options.ndcgGain,
        options.minGrade,
        options.meanOver,
        options.profile,
    ]);
}
/**
 * What compareScored will need of the baseline alone (its metric table, groups, and every metric over the run and
 * each group), computed ahead: the parallel compare does it while the worker thread finishes the candidate.
 */
function prepareBaseline(baseline, options) {
    options = withGoldenProfile(options, baseline.golden);
    const defs = buildMetricTable(options, baseline.recordStages);
    const values = new PerQueryValues(defs, baseline.queries.length, baseline.columns);
    const measured = defs.filter((d) => !d.runLevel);
    for (const def of measured)
        values.evaluate(def, baseline.run);
    const groups = Object.values(groupQueries(baseline.queries)).flatMap((byName) => [...byName.values()]);
    values.sumGroups(measured, groups);
    for (const indexes of groups)
        for (const def of measured)
            values.evaluate(def, baseline.run, indexes);
    void baseline.golden.fingerprint; // computed on first read: now, while the worker still scores, not after the join
    return { table: baseline, key: valuesKey(options, baseline.recordStages), values };
}
/**
 * Every metric over the whole runs, with the paired test where a metric has per-query values. The test pairs the
 * queries both runs' means count: a query missing from a run counts as that run's mean counts it (a miss by
 * default), so a candidate that drops results cannot pass a significant_only gate on the queries it kept.
 */
function compareMetrics(defs, sides, options) {
    const { baseline, candidate, bValues, cValues } = sides;
    const metrics = {};
    for (const def of defs) {
        const m = metricComparison(bValues.evaluate(def, baseline.run), cValues.evaluate(def, candidate.run), sides.comparable(def));
        if (def.paired && def.perQuery) {
            const diffs = pairedDiffs(bValues.column(def.id), cValues.column(def.id));
            const sig = pairedSignificance(diffs, options.permutations, (options.seed ^ hashString(def.id)) >>> 0, options.alpha);
            m.n_paired = diffs.length;
            if (sig) {
                m.p_value = sig.pValue;
                m.ci = sig.ci;
                m.significant = sig.pValue < options.alpha;
            }
        }
        metrics[def.id] = m;
    }
    return metrics;
}
/**
 * Every per-query metric over each breakdown group (no paired test), and each group's size. Both runs are scored
 * against one golden set, so records line up index by index and the groups are the same.
 */
function compareBreakdowns(defs, sides) {
    const { baseline, candidate, bValues, cValues } = sides;
    const groups = aggregate_groupQueries(baseline.queries);
    const groupLists = Object.values(groups).flatMap((byName) => [...byName.values()]);
    bValues.sumGroups(defs, groupLists);
    cValues.sumGroups(defs, groupLists);
    const breakdowns = {};
    const groupSizes = {};
    for (const kind of Object.keys(groups)) {
        if (kind === 'vault' && groups.vault.size === 0)
            continue; // as in aggregate's report
        // No prototype: group names are the input's, `__proto__` included.
        breakdowns[kind] = Object.create(null);
        groupSizes[kind] = Object.create(null);
        for (const [name, indexes] of groups[kind]) {
            groupSizes[kind][name] = indexes.length;
            const group = {};
            for (const def of defs) {
                if (def.runLevel)
                    continue;
                group[def.id] = metricComparison(bValues.evaluate(def, baseline.run, indexes), cValues.evaluate(def, candidate.run, indexes), sides.comparable(def));
            }
            breakdowns[kind][name] = group;
        }
    }
    return { breakdowns, groupSizes };
}
/**
 * The per-query metric whose delta orders per-query rows of equal severity: nDCG@10, or at the largest cutoff; with
 * no cutoff (a library caller's `ks: []`; the CLI, config and action refuse one) MRR, which has no k.
 */
function perQueryMetricOf(options) {
    if (options.ks.length === 0)
        return `mrr@${options.mrrCutoff}`;
    return `nDCG@${options.ks.includes(10) ? 10 : Math.max(...options.ks)}`;
}
function queryOutcomes(baseline, candidate, judgeComparable, deltaColumns, runMatch, queryMatch, labels) {
    const bFacts = baseline.facts;
    const cFacts = candidate.facts;
    const perQuery = baseline.queries.map((q, i) => {
        const outcome = outcomeOf(q, bFacts.hasExpectations[i] === 1, sideOf(bFacts, i), sideOf(cFacts, i), judgeComparable, orNull(deltaColumns.candidate[i] - deltaColumns.baseline[i]), labels);
        // Both runs were matched with the same expectations, so one mode per query says how.
        if (runMatch !== null) {
            const mode = QUERY_CHUNK_MATCHES[queryMatch[i]];
            outcome.chunk_match = mode;
            // The note is what reports show per query; the run's mode is said once (commonCause).
            if (mode !== runMatch && bFacts.hasExpectations[i] === 1)
                outcome.note += ` (chunk match ${mode})`;
        }
        return outcome;
    });
    const checksSnippets = candidate.run.chunks !== null;
    perQuery.forEach((o, i) => {
        if (o.kind === 'regression' || o.kind === 'loss' || o.answer_regression)
            o.candidate_row = rowCore(rowFactsAt(cFacts, i, baseline.queries[i].answerable, checksSnippets));
    });
    const counts = { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 };
    for (const o of perQuery) {
        if (o.kind === 'flaky')
            continue; // never here: setAsideFlaky (repeats.ts) sets it later
        counts[o.kind]++;
        if (o.answer_regression)
            counts.answer_regression++;
    }
    return { per_query: perQuery, counts };
}
function goldenCoverage(baseline, candidate) {
    const bFacts = baseline.facts;
    const cFacts = candidate.facts;
    return {
        fingerprint: baseline.golden.fingerprint,
        queries: baseline.queries.length,
        pending: baseline.pendingQueries.length,
        added: baseline.queries.filter((_, i) => cFacts.hasResult[i] === 1 && bFacts.hasResult[i] === 0).map((q) => q.id),
        removed: baseline.queries.filter((_, i) => bFacts.hasResult[i] === 1 && cFacts.hasResult[i] === 0).map((q) => q.id),
        unknown_query_ids: {
            baseline: aggregate_distinctSorted(baseline.unknownResultIds),
            candidate: aggregate_distinctSorted(candidate.unknownResultIds),
        },
        duplicate_query_ids: {
            baseline: [...baseline.duplicateResultIds].sort(),
            candidate: [...candidate.duplicateResultIds].sort(),
        },
        ...(baseline.cappedResultIds.length + candidate.cappedResultIds.length > 0
            ? {
                capped_query_ids: {
                    baseline: aggregate_distinctSorted(baseline.cappedResultIds),
                    candidate: aggregate_distinctSorted(candidate.cappedResultIds),
                },
            }
            : {}),
        shared: bFacts.hasResult.reduce((n, b, i) => n + (b === 1 && cFacts.hasResult[i] === 1 ? 1 : 0), 0),
    };
}
/** Both sides' per-query values over one metric table; the baseline's reused from `prepared` where it fits. */
function measureSides(baseline, candidate, defs, valuesKeyNow, prepared, judgeComparable) {
    const bValues = prepared?.table === baseline && prepared.key === valuesKeyNow
        ? prepared.values
        : new perQueryValues_PerQueryValues(defs, baseline.queries.length, baseline.columns);
    return {
        baseline,
        candidate,
        bValues,
        // one table on both sides (the candidate-only report): measured once
        cValues: candidate === baseline ? bValues : new perQueryValues_PerQueryValues(defs, candidate.queries.length, candidate.columns),
        comparable: (def) => def.family !== 'judge' || judgeComparable,
    };
}
/** The options the report records: what a reader needs to reproduce its numbers. */
function reportedOptions(options) {
    return {
        ks: options.ks,
        mrr_cutoff: options.mrrCutoff,
        ndcg_gain: options.ndcgGain,
        min_grade: options.minGrade,
        mean_over: options.meanOver,
        seed: options.seed,
        permutations: options.permutations,
        ...(options.profile !== undefined && options.profile !== 'evalverdict' ? { profile: options.profile } : {}),
    };
}
/** The per-query columns the gate stage asks for after the report is built: paired differences, failing queries. */
function perQueryLookups(defs, sides) {
    const groups = aggregate_groupQueries(sides.baseline.queries);
    const pairedDiffsOf = (id, where) => {
        if (!defs.some((d) => d.id === id && d.paired && d.perQuery))
            return null;
        const rows = where === undefined ? null : (groups[where.key]?.get(where.value) ?? null);
        if (where !== undefined && rows === null)
            return null;
        return pairedDiffs(sides.bValues.column(id), sides.cValues.column(id), rows);
    };
    const failingQueriesOf = (id, bad) => defs.some((d) => d.id === id && d.perQuery)
        ? sides.candidate.queries.filter((_, i) => sides.cValues.column(id)[i] === bad).map((q) => q.id)
        : null;
    // A quantity's values on both sides, over the queries that have it on both (a trade's cost: issue 49).
    const pairedQuantityOf = (name) => {
        const [b, c] = [sides.bValues.quantity(name), sides.cValues.quantity(name)];
        if (b === null || c === null)
            return null;
        const rows = [];
        for (let i = 0; i < b.length; i++)
            if (b[i] === b[i] && c[i] === c[i])
                rows.push(i);
        return { baseline: Float64Array.from(rows, (i) => b[i]), candidate: Float64Array.from(rows, (i) => c[i]) };
    };
    return { pairedDiffsOf, failingQueriesOf, pairedQuantityOf };
}
function compareScored(baseline, candidate, options, chunkMatch, prepared = null) {
    options = score_withGoldenProfile(options, baseline.golden);
    const stages = [...new Set([...baseline.recordStages, ...candidate.recordStages])].sort();
    const defs = registry_buildMetricTable(options, stages);
    const bRun = baseline.run.run;
    const cRun = candidate.run.run;
    const judgeComparable = bRun.judgeModel === cRun.judgeModel && bRun.judgePromptVersion === cRun.judgePromptVersion;
    const differences = configDifferences(baseline.run, candidate.run);
    const sides = measureSides(baseline, candidate, defs, valuesKey(options, stages), prepared, judgeComparable);
    aggregate_checkResultsMatchGolden(baseline.run, resultsMatched(baseline), baseline.unknownResultIds);
    aggregate_checkResultsMatchGolden(candidate.run, resultsMatched(candidate), candidate.unknownResultIds);
    const metrics = compareMetrics(defs, sides, options);
    const { breakdowns, groupSizes } = compareBreakdowns(defs, sides);
    const perQueryMetric = perQueryMetricOf(options);
    // Every retrieval metric has per-query values, whatever the runs' stages: the column is always there.
    const deltaColumns = {
        baseline: sides.bValues.column(perQueryMetric),
        candidate: sides.cValues.column(perQueryMetric),
    };
    const queryMatch = loosestMatch(baseline, candidate);
    const matchCounts = chunkMatchCounts(queryMatch);
    const report = {
        chunker_version_match: chunkMatch,
        ...(matchCounts !== null ? { chunk_match_queries: matchCounts } : {}),
        baseline: summariseRun(baseline.run),
        candidate: summariseRun(candidate.run),
        golden: goldenCoverage(baseline, candidate),
        differences,
        judge_comparable: judgeComparable,
        alpha: options.alpha,
        metrics,
        breakdowns,
        per_query_metric: perQueryMetric,
        ...queryOutcomes(baseline, candidate, judgeComparable, deltaColumns, matchCounts !== null ? chunkMatch : null, queryMatch, options.profile === 'wfgy'),
        options: reportedOptions(options),
    };
    const ignoredStageTimings = { baseline: baseline.ignoredStageTimings, candidate: candidate.ignoredStageTimings };
    return { report, defs, groupSizes, ignoredStageTimings, ...perQueryLookups(defs, sides) };
}
/** Whether the runs declare different chunker versions up front (under strict: an InputError instead). */
function declaredVersionsDiffer(baseline, candidate, strict) {
    const a = declaredChunkerVersion(baseline);
    const b = declaredChunkerVersion(candidate);
    if (a === undefined || b === undefined || a === b)
        return false;
    if (strict)
        refuseStrict(baseline, candidate, a, b);
    return true;
}
/**
 * Two runs already scored with exact chunk matching (e.g. in parallel): the comparison, or null when the versions
 * their hits carry differ, and compareRuns must score both again with the fallback. Under strict: an InputError.
 * `prepared`: the baseline's side measured ahead (prepareBaseline), used when it fits.
 */
function compareExactlyScored(bs, cs, options = {}, prepared = null) {
    const opts = { ...DEFAULT_COMPARE_OPTIONS, ...options };
    const versionB = chunkerVersionOf(bs);
    const versionC = chunkerVersionOf(cs);
    if (versionB !== versionC) {
        if (opts.strictChunkerVersion)
            refuseStrict(bs.run, cs.run, versionB, versionC);
        return null;
    }
    return compareScored(bs, cs, opts, 'exact', prepared);
}
/**
 * Compares two runs scored against one golden set (applyGates in src/gate/gates.ts then gates the comparison).
 * One run database is in memory at a time: the baseline is scored and released before the candidate is opened
 * (pass the candidate as a function to defer that). Matching is exact unless the chunker versions (declared, else
 * those the hits carry) differ; then both runs are scored again with the fallback.
 */
function compareRuns(baseline, candidate, golden, options = {}) {
    const opts = { ...DEFAULT_COMPARE_OPTIONS, ...options };
    const b = score_resultsOf(typeof baseline === 'function' ? baseline() : baseline);
    let c = typeof candidate === 'function' ? null : score_resultsOf(candidate);
    const exactOptions = { ...opts, chunkMatch: 'exact', referenceChunks: null };
    // Each run is scored straight into its table: no record is kept.
    const scoreReleasing = (run, scoring) => {
        try {
            return table_scoreToTable(run, golden, scoring);
        }
        finally {
            run.release?.();
        }
    };
    const fallback = (cRun) => {
        const scoring = {
            ...opts,
            chunkMatch: 'fallback_doc_span',
            referenceChunks: mergedChunks(b, cRun),
        };
        const bs = scoreReleasing(b, scoring);
        const cs = scoreReleasing(cRun, scoring);
        return compareScored(bs, cs, opts, matchLabel(bs, cs));
    };
    const declaredDiffer = (run) => declaredVersionsDiffer(b, run, opts.strictChunkerVersion);
    // Both runs known up front and declared different: no exact pass.
    if (c && declaredDiffer(c))
        return fallback(c);
    const bs = scoreReleasing(b, exactOptions);
    c ??= score_resultsOf(candidate());
    if (declaredDiffer(c))
        return fallback(c);
    const cs = scoreReleasing(c, exactOptions);
    const versionB = chunkerVersionOf(bs);
    const versionC = chunkerVersionOf(cs);
    if (versionB !== versionC) {
        if (opts.strictChunkerVersion)
            refuseStrict(b, c, versionB, versionC);
        return fallback(c);
    }
    return compareScored(bs, cs, opts, 'exact');
}
/**
 * A candidate-only report (`--baseline none`): the candidate scored once, compared with itself for the shape of the
 * report, then every baseline-side value nulled: baseline values, deltas, tests, intervals, per-query outcomes and
 * counts. Gates that compare with a baseline then have no data (applyGates); `min` and `max` gates apply.
 */
function compareCandidateOnly(candidate, golden, options = {}) {
    const opts = { ...DEFAULT_COMPARE_OPTIONS, ...options };
    const run = resultsOf(typeof candidate === 'function' ? candidate() : candidate);
    let table;
    try {
        table = scoreToTable(run, golden, { ...opts, chunkMatch: 'exact', referenceChunks: null });
    }
    finally {
        run.release?.();
    }
    const { report, defs, groupSizes, failingQueriesOf } = compareScored(table, table, opts, 'exact');
    const alone = (m) => ({
        ...m,
        baseline: null,
        delta: null,
        rel_delta: null,
        n_baseline: 0,
        n_paired: null,
        p_value: null,
        ci: null,
        significant: null,
    });
    const mapMetrics = (metrics) => Object.fromEntries(Object.entries(metrics).map(([id, m]) => [id, alone(m)]));
    return {
        report: {
            ...report,
            baseline: null,
            differences: [],
            metrics: mapMetrics(report.metrics),
            breakdowns: Object.fromEntries(Object.entries(report.breakdowns).map(([kind, groups]) => [
                kind,
                Object.fromEntries(Object.entries(groups).map(([name, metrics]) => [name, mapMetrics(metrics)])),
            ])),
            golden: {
                ...report.golden,
                added: [],
                removed: [],
                unknown_query_ids: { ...report.golden.unknown_query_ids, baseline: [] },
                duplicate_query_ids: { ...report.golden.duplicate_query_ids, baseline: [] },
                ...(report.golden.capped_query_ids
                    ? { capped_query_ids: { ...report.golden.capped_query_ids, baseline: [] } }
                    : {}),
            },
            per_query: [],
            counts: { win: 0, loss: 0, draw: 0, regression: 0, answer_regression: 0 },
        },
        defs,
        groupSizes,
        ignoredStageTimings: { baseline: 0, candidate: table.ignoredStageTimings },
        pairedDiffsOf: () => null,
        failingQueriesOf,
    };
}

;// CONCATENATED MODULE: ./schemas/gate-config.schema.json
const gate_config_schema_namespaceObject = /*#__PURE__*/JSON.parse('{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"gate-config.schema.json","title":"EvalVerdict gate config","description":"The gate config (`.github/evalverdict.yml`, `--config`, the action\'s `gates` input): docs/gates.md. Put `# yaml-language-server: $schema=<path to this file>` on its first line.","type":["object","null"],"additionalProperties":false,"properties":{"preset":{"$ref":"#/$defs/preset"},"presets":{"anyOf":[{"$ref":"#/$defs/preset"},{"type":"array","items":{"$ref":"#/$defs/preset"}}]},"alpha":{"type":"number","exclusiveMinimum":0,"maximum":0.5,"description":"Significance level of the paired tests, above 0 and at most 0.5; default 0.05."},"min_n":{"type":"integer","minimum":0,"description":"Default `min_n` of the gates with `where`; default 20."},"gates":{"type":["array","null"],"maxItems":200,"items":{"$ref":"#/$defs/gate"},"description":"At most 200 gates, each a row of the report\'s gate table. The reader counts the presets\' gates too (retrieval 4, rag-answers 5), which JSON Schema cannot add up: with presets, list fewer."},"margin":{"type":"number","minimum":0,"description":"The drop that matters for tested gates: a gate passes when a drop of it is ruled out, fails when the drop is shown to be beyond it; 0 asks for a gain. Default 0.1 (docs/gates.md)."},"on_inconclusive":{"enum":["fail","warn","pass"],"description":"What a tested gate does when its interval neither rules out a drop of the margin nor shows one beyond it; default warn (docs/gates.md)."},"correction":{"enum":["none","holm","bh"],"description":"How the tested gates\' p values are adjusted together; default holm."},"primary":{"type":"string","minLength":1,"description":"A metric whose tested gates use the full alpha, outside the correction."},"k":{"anyOf":[{"type":"integer","minimum":1,"maximum":1000},{"type":"array","minItems":1,"items":{"type":"integer","minimum":1,"maximum":1000}}],"description":"The cutoffs of the @k metrics, as --k; the command line wins."},"mrr_cutoff":{"type":"integer","minimum":1,"maximum":1000,"description":"The cutoff of mrr@N, as --mrr-cutoff; the command line wins."},"slices":{"anyOf":[{"enum":["category","difficulty","tag","answerable","vault"]},{"type":"array","minItems":1,"items":{"enum":["category","difficulty","tag","answerable","vault"]}}],"description":"The golden-set fields whose every value is a slice that a per_slice gate must hold in."},"min_queries":{"type":"integer","minimum":1,"description":"The fewest queries a slice needs to be gated; smaller slices are shown, never enforced. Default 20."},"repeats":{"type":["object","null"],"additionalProperties":false,"description":"Repeated runs per side (docs/compare.md, \\"Repeated runs and flaky queries\\").","properties":{"may_differ":{"anyOf":[{"type":"string","minLength":1},{"type":["array","null"],"items":{"type":"string","minLength":1}}],"description":"The config_snapshot_json keys (top-level) a side\'s runs may differ in without a warning, e.g. [seed, started_at]; listed in the JSON as `repeats.<side>.expected_differences`. Replaces the default, [seed]; an empty list warns on every difference."}}},"noise":{"type":"object","additionalProperties":false,"required":["measured","runs","metrics"],"description":"The run-to-run noise `evalverdict calibrate` measured, written into the config it suggests; the report names it. A record: it changes no verdict (docs/gates.md, \\"Noise floor\\").","properties":{"measured":{"type":"string","description":"The newest calibration run\'s created_at (RFC 3339)."},"runs":{"type":"integer","minimum":2,"description":"How many runs of one commit were measured."},"commit":{"type":["string","null"],"description":"The commit the runs record."},"metrics":{"type":"object","minProperties":1,"maxProperties":200,"description":"Per metric id: its noise; 1 to 200 metrics (as many as a config may have gates).","additionalProperties":{"type":"object","additionalProperties":false,"required":["sd_diff","sd_mean","changed","detects"],"properties":{"sd_diff":{"type":"number","minimum":0,"description":"SD of a query\'s difference between two runs."},"sd_mean":{"type":"number","minimum":0,"description":"SD of the run mean across runs."},"changed":{"type":"number","minimum":0,"description":"Share of queries that differ between two runs."},"detects":{"type":["number","null"],"minimum":0,"description":"The smallest drop the gate\'s test detects at this noise (80% power); null: none."}}}}}}},"$defs":{"preset":{"enum":["retrieval","rag-answers"]},"gate":{"type":"object","additionalProperties":false,"required":["metric"],"allOf":[{"description":"A gate needs a threshold: one of min, max, max_drop, max_increase, max_drop_pct, max_increase_pct, or margin.","anyOf":[{"required":["min"]},{"required":["max"]},{"required":["max_drop"]},{"required":["max_increase"]},{"required":["max_drop_pct"]},{"required":["max_increase_pct"]},{"required":["margin"]}]}],"properties":{"metric":{"type":"string","minLength":1,"description":"A metric id (`evalverdict metrics`) or regressions, losses, wins, answer_regressions."},"where":{"type":"object","minProperties":1,"maxProperties":1,"additionalProperties":false,"properties":{"category":{"type":["string","number"]},"difficulty":{"type":["string","number"]},"tag":{"type":["string","number"]},"vault":{"type":["string","number"]},"answerable":{"type":"boolean"}}},"level":{"enum":["error","warn"]},"min":{"type":"number"},"max":{"type":"number"},"max_drop":{"type":"number"},"max_increase":{"type":"number"},"max_drop_pct":{"type":"number"},"max_increase_pct":{"type":"number"},"significant_only":{"type":"boolean"},"trade":{"type":"object","additionalProperties":false,"required":["margin","metric","min_gain"],"description":"On a tested gate over the whole set: a drop beyond the gate\'s margin but under trade.margin passes when the cost falls by min_gain or more (docs/gates.md, Trades).","properties":{"margin":{"type":"number","exclusiveMinimum":0},"metric":{"enum":["latency_ms","cost_usd","prompt_tokens","completion_tokens"]},"min_gain":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}}},"per_slice":{"type":"boolean","description":"A tested gate that must also hold in every slice of the config\'s slices with min_queries queries or more."},"min_n":{"type":"integer","minimum":0},"on_no_data":{"enum":["fail","warn","pass"]},"margin":{"type":"number","minimum":0,"description":"This gate\'s drop that matters (else its own max_drop & co. as a drop, else the config\'s margin); 0 asks for a gain."},"on_inconclusive":{"enum":["fail","warn","pass"],"description":"What a tested gate does when its interval neither rules out a drop of the margin nor shows one beyond it; default warn (docs/gates.md)."}}}}}');
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __nccwpck_require__(8815);
;// CONCATENATED MODULE: ./src/yamlLines.ts
/** YAML parsed with positions, for messages that name `file:line` (golden sets and gate configs). */


/** Parses `text`, throwing an InputError `source:line:col: invalid YAML (...)` for the first syntax error. */
function parseYamlWithLines(text, source) {
    const lineCounter = new dist/* LineCounter */.HN();
    const doc = (0,dist/* parseDocument */.Tp)(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length > 0) {
        const e = doc.errors[0];
        const { line, col } = lineCounter.linePos(e.pos[0]);
        throw new errors_InputError(`${source}:${line}:${col}: invalid YAML (${e.message.split('\n')[0]})`);
    }
    const lineOf = (node) => {
        const range = node?.range;
        return range ? lineCounter.linePos(range[0]).line : 1;
    };
    const keyLine = (map, key) => {
        const pair = map.items.find((p) => p.key?.value === key);
        return pair ? lineOf(pair.value ?? pair.key) : lineOf(map);
    };
    return { doc, lineOf, keyLine };
}

;// CONCATENATED MODULE: ./src/stats/power.ts
/**
 * The smallest drop a gate's one-sided test can see: the minimum detectable drop (MDD) at a level and 80% power,
 * the question Webber, Moffat and Zobel ask of IR test collections ("Statistical power in retrieval experimentation",
 * CIKM 2008).
 *
 * Model: n queries, a share rho of them changed between two runs with no real change, with a typical size s (root
 * mean square; 1, a hit lost, when none changed), from baseline-side noise (measuredNoiseModel: the config's
 * `noise:` block or the baseline's repeats; redrawnNoiseModel: `evalverdict power`'s assumed churn) or, lacking it,
 * from a comparison's own differences with the mean change removed (noiseModel). Under no change a changed query
 * is as likely better as worse. A drop of size d * s first moves a share of the unchanged queries to a loss of
 * size s (P(loss) = rho/2 + d, P(win) = rho/2, while d <= 1 - rho); past that, when too few
 * queries are unchanged, the rest of the drop turns wins into losses (each such query moves the mean by 2s), so the
 * mean difference is always -d * s and d runs up to 1 (every query a loss). For a metric whose differences all have one
 * size (hit@k, and nDCG/MRR when every change is a hit found or lost) the gate's test is then the exact sign
 * test, and for n <= EXACT_POWER_MAX the power is summed exactly over every (losses, wins) count; above it the
 * normal approximation of the same test is used (at 100/101 queries the two agree within 0.02: test/verdict.test.ts).
 */

const EXACT_POWER_MAX = 100;
const TARGET_POWER = 0.8;
/**
 * The noise of a comparison's own paired differences with the mean change removed, for when no baseline-side noise
 * is known: the share of queries that changed, at the size their spread about the mean gives (the variance of the
 * differences, not their mean square: sqrt(variance / share)). A real change, better or worse, then does not count
 * as noise by its mean. No spread about the mean (nothing changed, or every query by the same amount): no noise, at
 * the changes' size (1 when none changed). On the latent model (test/powerAdvice.test.ts) its detectable drop at 300
 * queries is 0.96-1.23 times the A/A noise's (median) under true drops of up to twice the margin; twice the rarer
 * side's share, the other way to remove a change, fell to 0.45, since a real drop also removes wins.
 */
function noiseModel(diffs) {
    const n = diffs.length;
    let changed = 0;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i++) {
        if (diffs[i] === 0)
            continue;
        changed++;
        sum += diffs[i];
        squares += diffs[i] * diffs[i];
    }
    if (changed === 0)
        return { n, rho: 0, size: 1 };
    const mean = sum / n;
    const variance = squares / n - mean * mean;
    // every query changed by the same amount: a spread of rounding error only
    if (variance <= 1e-12 * (squares / n))
        return { n, rho: 0, size: Math.sqrt(squares / changed) };
    const rho = changed / n;
    return { n, rho, size: Math.sqrt(variance / rho) };
}
/**
 * The model of a measured noise floor (the config's `noise:` block, `evalverdict calibrate`): a share `changed` of the
 * queries differs between two runs with no change, with a mean squared difference sdDiff^2, so a typical change of
 * sdDiff / sqrt(changed) (1 when nothing changed), over the n queries a comparison pairs.
 */
function measuredNoiseModel(n, changed, sdDiff) {
    const rho = Math.min(1, changed);
    return { n, rho, size: rho === 0 || sdDiff === 0 ? 1 : sdDiff / Math.sqrt(rho) };
}
/**
 * The noise when a share `churn` of the queries is redrawn between two runs with no change, a redrawn query taking
 * another value of the same run's per-query values (NaN: left out): it differs with probability 1 - sum p_v^2 over
 * the distinct values v, by a mean square of twice their variance. A hit@k at value v gives 2v(1 - v) and size 1;
 * nDCG or MRR get the size of their own spread instead of a hit's.
 */
function redrawnNoiseModel(values, churn) {
    const kept = Array.from(values)
        .filter((v) => !Number.isNaN(v))
        .sort((a, b) => a - b);
    const n = kept.length;
    if (n === 0)
        return { n, rho: 0, size: 1 };
    const mean = kept.reduce((a, v) => a + v, 0) / n;
    const variance = kept.reduce((a, v) => a + (v - mean) * (v - mean), 0) / n;
    let same = 0;
    for (let i = 0, j = 0; i < n; i = j) {
        while (j < n && kept[j] === kept[i])
            j++;
        same += ((j - i) / n) ** 2;
    }
    const differ = Math.max(0, 1 - same);
    return { n, rho: churn * differ, size: differ === 0 ? 1 : Math.sqrt((2 * variance) / differ) };
}
/** For m changed queries, the fewest losses the one-sided exact sign test rejects at `level` (m + 1: none). */
function rejectionCounts(n, level) {
    const least = new Int32Array(n + 1);
    for (let m = 0; m <= n; m++)
        least[m] = largestReaching(binomialUpperTails(m), level) + 1;
    return least;
}
/** count * log(p), 0 for no count (so that a share of 0 never makes 0 * -Infinity). */
const countTimesLog = (count, logP) => (count === 0 ? 0 : count * logP);
/** Exact power of the one-sided sign test when P(loss) = lossP and P(win) = winP per query. */
function exactPower(n, lossP, winP, least, lf) {
    // The three logs once per call, not once per cell: the MDD search alone calls this 41 times for a gate.
    const logLoss = Math.log(lossP);
    const logWin = Math.log(winP);
    const logSame = Math.log(Math.max(0, 1 - lossP - winP));
    let power = 0;
    for (let losses = 0; losses <= n; losses++) {
        // least[] never falls as the changed count grows: once these losses are too few, they stay too few with more wins.
        for (let wins = 0; wins + losses <= n && losses >= least[losses + wins]; wins++) {
            const same = n - losses - wins;
            const log = lf[n] -
                lf[losses] -
                lf[wins] -
                lf[same] +
                countTimesLog(losses, logLoss) +
                countTimesLog(wins, logWin) +
                countTimesLog(same, logSame);
            power += Math.exp(log);
        }
    }
    return power;
}
/**
 * Per query, P(loss) and P(win) under a drop of d (in units of the typical size): from unchanged queries first, then
 * from wins, so that P(loss) - P(win) = d for every d in [0, 1] (module comment).
 */
function lossWinShares(rho, d) {
    const fromUnchanged = Math.min(d, 1 - rho);
    const fromWins = (d - fromUnchanged) / 2;
    return { loss: rho / 2 + fromUnchanged + fromWins, win: Math.max(0, rho / 2 - fromWins) };
}
/** Normal-approximation power of the same test: reject when the drop sum exceeds z * sqrt(sum of squares). */
function normalPower(n, rho, d, zLevel) {
    const { loss, win } = lossWinShares(rho, d);
    const changed = loss + win;
    if (changed === 0)
        return 0;
    const mean = n * d;
    const sd = Math.sqrt(n * Math.max(1e-12, changed - d * d));
    return normalUpperTail((zLevel * Math.sqrt(n * changed) - mean) / sd);
}
/** The minimum detectable drop (in the metric's unit) at `level` (one-sided) and `target` power (80%); Infinity: none. */
function minimumDetectableDrop(model, level, target = TARGET_POWER) {
    const { n, rho, size } = model;
    if (n === 0)
        return Number.POSITIVE_INFINITY;
    let power;
    if (n <= EXACT_POWER_MAX) {
        const lf = logFactorialTable(n);
        const least = rejectionCounts(n, level);
        power = (d) => {
            const { loss, win } = lossWinShares(rho, d);
            return exactPower(n, loss, win, least, lf);
        };
    }
    else {
        const zLevel = normalQuantile(level);
        power = (d) => normalPower(n, rho, d, zLevel);
    }
    const most = 1;
    if (power(most) < target)
        return Number.POSITIVE_INFINITY;
    let lo = 0;
    let hi = most;
    for (let i = 0; i < 40; i++) {
        const mid = (lo + hi) / 2;
        if (power(mid) >= target)
            hi = mid;
        else
            lo = mid;
    }
    return hi * size;
}
/** The fewest queries, with the same share and size of changes, whose MDD is at most `margin` (null: over 10^7). */
function queriesNeeded(model, level, margin) {
    const mddAt = (n) => minimumDetectableDrop({ ...model, n }, level);
    const ceiling = 10_000_000;
    if (mddAt(ceiling) > margin)
        return null;
    let lo = 1;
    let hi = ceiling;
    while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (mddAt(mid) <= margin)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

;// CONCATENATED MODULE: ./src/gate/noise.ts
/**
 * The gate config's `noise:` block: the run-to-run noise `evalverdict calibrate` measured, carried in the config it
 * suggests so the report can name the noise floor its margins came from (docs/gates.md, "Noise floor"). It is a
 * record, not a gate: nothing here changes a verdict.
 *
 *   noise:
 *     measured: "2026-11-28T04:00:00Z"   # the newest calibration run's created_at
 *     runs: 5
 *     commit: "0123456789ab"             # optional: the commit the runs record
 *     metrics:
 *       hit@5: { sd_diff: 0.2828, sd_mean: 0.0119, changed: 0.08, detects: 0.0412 }
 */






const NOISE_KEYS = ['measured', 'runs', 'commit', 'metrics'];
const METRIC_KEYS = ['sd_diff', 'sd_mean', 'changed', 'detects'];
/** A config names at most this many metrics' noise (as many as it may have gates). */
const MAX_NOISE_METRICS = 200;
/** The `noise` node of a config's root map, checked key by key; every error names the line of the key at fault. */
function parseNoise(node, { lineOf, keyLine }, source) {
    if (!(0,dist/* isMap */.jh)(node))
        throw new errors_InputError(`${source}:${lineOf(node)}: \`noise\` must be a map with measured, runs and metrics`);
    const at = (key) => `${source}:${keyLine(node, key)}`;
    const top = node.toJSON();
    for (const key of Object.keys(top))
        if (!NOISE_KEYS.includes(key))
            throw new errors_InputError(`${at(key)}: unknown \`noise\` key \`${key}\`${suggest_suggest(key, NOISE_KEYS)}`);
    const { measured, runs, commit } = top;
    if (typeof measured !== 'string' || runTime(measured) === null)
        throw new errors_InputError(`${at('measured')}: \`noise.measured\` must be an RFC 3339 time, got ${inputText_valueText(measured)}`);
    if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 2)
        throw new errors_InputError(`${at('runs')}: \`noise.runs\` must be a whole number >= 2, got ${inputText_valueText(runs)}`);
    if (commit !== undefined && commit !== null && typeof commit !== 'string')
        throw new errors_InputError(`${at('commit')}: \`noise.commit\` must be a string, got ${inputText_valueText(commit)}`);
    const metricsNode = node.get('metrics', true);
    if (!(0,dist/* isMap */.jh)(metricsNode) || metricsNode.items.length === 0)
        throw new errors_InputError(`${at('metrics')}: \`noise.metrics\` must map metric ids to their noise`);
    if (metricsNode.items.length > MAX_NOISE_METRICS)
        throw new errors_InputError(`${at('metrics')}: \`noise.metrics\` names more than ${MAX_NOISE_METRICS} metrics`);
    const metrics = {};
    for (const pair of metricsNode.items) {
        const id = String(pair.key?.value ?? pair.key);
        metrics[id] = parseMetricNoise(id, pair.value, `${source}:${lineOf(pair.value ?? pair.key)}`);
    }
    return { measured, runs, commit: commit ?? null, metrics };
}
function parseMetricNoise(id, node, at) {
    if (!(0,dist/* isMap */.jh)(node))
        throw new errors_InputError(`${at}: \`noise.metrics.${id}\` must be a map of ${METRIC_KEYS.join(', ')}`);
    const m = node.toJSON();
    for (const key of Object.keys(m))
        if (!METRIC_KEYS.includes(key))
            throw new errors_InputError(`${at}: unknown key \`${key}\` in \`noise.metrics.${id}\`${suggest_suggest(key, [...METRIC_KEYS])}`);
    const number = (key, nullable) => {
        const v = m[key];
        if (nullable && v === null)
            return null;
        if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
            throw new errors_InputError(`${at}: \`noise.metrics.${id}.${key}\` must be a number >= 0, got ${inputText_valueText(v)}`);
        return v;
    };
    return {
        sd_diff: number('sd_diff', false),
        sd_mean: number('sd_mean', false),
        changed: number('changed', false),
        detects: number('detects', true),
    };
}
/**
 * A metric's measured noise as the detectable drop's model over the n queries a comparison pairs: the share of
 * queries that changed between two runs of one commit, at a typical size sd_diff / sqrt(changed) (graded metrics
 * too: nDCG's small changes keep their own size, not a hit's). The baseline side's noise, not the comparison's.
 */
function noiseFloorModel(floor, n) {
    return measuredNoiseModel(n, floor.changed, floor.sd_diff);
}

;// CONCATENATED MODULE: ./src/gate/settings.ts
/**
 * The settings scoring and testing share: the cutoffs (`k`, `mrr_cutoff`) and the level (`alpha`). Each is bounded
 * here once, whichever door it comes in by (the gate config, a CLI flag, an action input), with the bounds of the
 * gate-config schema (schemas/gate-config.schema.json), the one source; then resolved once (config.ts,
 * settingsOf) and passed down: scoring and the comparison take them as options, and the gates read the level the
 * comparison was tested at.
 */



const { k: kSchema, mrr_cutoff: cutoffSchema, alpha: alphaSchema } = gate_config_schema_namespaceObject.properties;
/** A cutoff's bounds (k's and mrr_cutoff's are the same; the schema test holds them together). */
const CUTOFF_MIN = cutoffSchema.minimum;
const CUTOFF_MAX = cutoffSchema.maximum;
/** alpha is above ALPHA_ABOVE and at most ALPHA_MAX: a tested gate's interval is two-sided at 1 - 2 alpha. */
const ALPHA_ABOVE = alphaSchema.exclusiveMinimum;
const ALPHA_MAX = alphaSchema.maximum;
const DEFAULT_ALPHA = 0.05;
/** The schema's own k bounds, for the test that holds them to mrr_cutoff's. */
const K_SCHEMA_BOUNDS = [kSchema.anyOf[0].minimum, kSchema.anyOf[0].maximum];
/** The words every refusal of a cutoff ends with. */
const CUTOFF_WORDS = `a whole number ${CUTOFF_MIN}-${CUTOFF_MAX}`;
function isCutoff(value) {
    return Number.isInteger(value) && value >= CUTOFF_MIN && value <= CUTOFF_MAX;
}
function isAlpha(value) {
    return typeof value === 'number' && value > ALPHA_ABOVE && value <= ALPHA_MAX;
}
/**
 * One cutoff as typed (a flag's or an input's text): decimal digits only, so "", "0x10" and "1e1" are refused rather
 * than read as numbers nobody typed. `name` opens the message (`--mrr-cutoff`, input `mrr-cutoff`).
 */
function cutoffFromText(text, name) {
    const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!isCutoff(n))
        throw new InputError(`${name}: ${valueText(text)} is not ${CUTOFF_WORDS}`);
    return n;
}
/** A comma list of cutoffs as typed (`1,3,5,10,20`): each as cutoffFromText, repeats dropped, in order. */
function cutoffListFromText(text, name) {
    const ks = text.split(',').map((part) => {
        const n = /^\d+$/.test(part.trim()) ? Number(part.trim()) : Number.NaN;
        if (!isCutoff(n))
            throw new InputError(`${name}: ${valueText(text)} is not ${CUTOFF_WORDS} or a comma list of them`);
        return n;
    });
    return [...new Set(ks)].sort((a, b) => a - b);
}

;// CONCATENATED MODULE: ./src/gate/config.ts
/**
 * Gate configuration: YAML validated with errors that name the line. Presets expand to plain gates.
 *
 *   preset: retrieval            # or presets: [retrieval, rag-answers]
 *   alpha: 0.05
 *   gates:
 *     - metric: hit@5
 *       min: 0.80
 */









/** The gate config both entries read when none is named and it exists (relative to the working directory). */
const DEFAULT_CONFIG_PATH = '.github/evalverdict.yml';
const THRESHOLD_KEYS = [
    'min',
    'max',
    'max_drop',
    'max_increase',
    'max_drop_pct',
    'max_increase_pct',
];
const WHERE_KEYS = ['category', 'difficulty', 'tag', 'answerable', 'vault'];
/** The costs a quality drop may be traded for: each the per-query quantity it reads, and its name in words. */
const TRADE_COSTS = {
    latency_ms: { quantity: 'elapsed_ms', words: 'latency' },
    cost_usd: { quantity: 'cost_usd', words: 'cost' },
    prompt_tokens: { quantity: 'prompt_tokens', words: 'prompt tokens' },
    completion_tokens: { quantity: 'completion_tokens', words: 'completion tokens' },
};
const TRADE_KEYS = ['margin', 'metric', 'min_gain'];
/** The smallest drop that matters, by default: see docs/gates.md, "Margins" (chosen by test/verdict.test.ts). */
const DEFAULT_MARGIN = 0.1;
/** A gate's keys and the config's: the gate-config schema's, the one list (editors read the same file). */
const GATE_KEYS = new Set(Object.keys(gate_config_schema_namespaceObject.$defs.gate.properties));
const TOP_KEYS = new Set(Object.keys(gate_config_schema_namespaceObject.properties));
/** The most gates a config may hold (presets' included). */
const MAX_GATES = 200;
/** Shipped presets. Thresholds are the issue's; each is documented in docs/gates.md. */
const PRESETS = {
    /**
     * WFGY example 08's gates G1-G5, on its metrics: G4 is its citation hit rate over answerable questions
     * (attribution_hit_rate, a refusal counting as a miss). WFGY reports an empty denominator as 0.0 and gates on it,
     * so a `min` gate without data fails and a `max` gate passes, whatever the golden set's profile.
     */
    'rag-answers': [
        { metric: 'answer_precision', level: 'error', thresholds: { min: 0.8 }, significantOnly: false, onNoData: 'fail' },
        {
            metric: 'under_refusal_rate',
            level: 'error',
            thresholds: { max: 0.05 },
            significantOnly: false,
            onNoData: 'pass',
        },
        {
            metric: 'over_refusal_rate',
            level: 'error',
            thresholds: { max: 0.25 },
            significantOnly: false,
            onNoData: 'pass',
        },
        {
            metric: 'attribution_hit_rate',
            level: 'error',
            thresholds: { min: 0.75 },
            significantOnly: false,
            onNoData: 'fail',
        },
        {
            metric: 'citation_schema_compliance',
            level: 'error',
            thresholds: { min: 0.98 },
            significantOnly: false,
            onNoData: 'fail',
        },
    ],
    // Tested gates at the config's margin: pass when a drop of it is ruled out, fail when the drop is shown to be
    // beyond it (docs/gates.md).
    retrieval: ['hit@5', 'mrr@10', 'nDCG@10', 'recall@10'].map((metric) => ({
        metric,
        level: 'error',
        thresholds: {},
        significantOnly: true,
    })),
};
/**
 * Used when no config is given: the retrieval preset alone. No count gate such as `regressions: max 0`: a count
 * with no test is yellow on nearly every honest change of a 300-query set (test/verdict.test.ts).
 */
function defaultGateConfig() {
    return parseGateConfig('preset: retrieval\n', 'built-in default');
}
/**
 * The built-in default for a report without a baseline (the action's `baseline: none` with no config): its gates,
 * all relative, have nothing to compare with, and warn instead of failing (docs/action.md).
 */
function candidateOnlyDefaultConfig() {
    const config = defaultGateConfig();
    return { ...config, gates: config.gates.map((g) => ({ ...g, onNoData: 'warn' })) };
}
function parseGateConfig(text, source) {
    const yaml = parseYamlWithLines(text, source);
    const { doc, lineOf, keyLine } = yaml;
    const root = doc.contents;
    if (root === null)
        return { source, alpha: DEFAULT_ALPHA, gates: [], ...TESTING_DEFAULTS, notices: [] };
    if (!(0,dist/* isMap */.jh)(root))
        throw new errors_InputError(`${source}:${lineOf(root)}: the gate config must be a map with \`gates\` (and optionally \`preset\`, \`alpha\`)`);
    const top = root.toJSON();
    for (const key of Object.keys(top)) {
        if (!TOP_KEYS.has(key))
            throw new errors_InputError(`${source}:${keyLine(root, key)}: unknown key \`${key}\`${suggest_suggest(key, [...TOP_KEYS])}`);
    }
    const alpha = top.alpha ?? DEFAULT_ALPHA;
    if (!isAlpha(alpha))
        throw new errors_InputError(`${source}:${keyLine(root, 'alpha')}: \`alpha\` must be a number above ${ALPHA_ABOVE} and at most ${ALPHA_MAX}, got ${inputText_valueText(alpha)}`);
    const defaultMinN = top.min_n ?? 20;
    if (typeof defaultMinN !== 'number' || !Number.isInteger(defaultMinN) || defaultMinN < 0)
        throw new errors_InputError(`${source}:${keyLine(root, 'min_n')}: \`min_n\` must be a whole number >= 0`);
    const at = (key) => `${source}:${keyLine(root, key)}`;
    const testing = { ...parseTesting(top, at), ...parseRepeats(root, yaml, source), ...parseSlices(top, at) };
    const gates = presetGates(top, keyLine(root, top.preset !== undefined ? 'preset' : 'presets'), source, defaultMinN);
    // `gates:` with nothing under it (every gate commented out) is no gates. Checked on the plain value: the node of
    // an empty value is a scalar holding null, never null itself.
    const gatesNode = root.get('gates', true);
    if (top.gates !== undefined && top.gates !== null) {
        if (!(0,dist/* isSeq */.oP)(gatesNode))
            throw new errors_InputError(`${source}:${lineOf(gatesNode)}: \`gates\` must be a list`);
        for (const item of gatesNode.items)
            gates.push(parseGate(item, yaml, source, defaultMinN));
    }
    // Each gate is a row of the comment's gate table (and an annotation): too many make a report GitHub refuses,
    // leaving the old comment up (bench/README.md, "What was kept").
    if (gates.length > MAX_GATES) {
        throw new errors_InputError(`${source}:${lineOf(gatesNode ?? root)}: ${gates.length} gates, more than the ${MAX_GATES} a report can show in a pull request comment`);
    }
    checkSlices(gates, testing, at);
    // A misspelt primary would leave every gate corrected without a word: it must name a gated metric.
    const gated = [...new Set(gates.map((g) => g.metric))];
    if (testing.primary !== null && !gated.includes(testing.primary))
        throw new errors_InputError(`${source}:${keyLine(root, 'primary')}: \`primary\` ${JSON.stringify(testing.primary)} is the metric of no gate here${suggest_suggest(testing.primary, gated)}`);
    const noise = top.noise === undefined ? undefined : parseNoise(root.get('noise', true), yaml, source);
    // A config calibrate wrote was written for the one-sided, corrected question: no notice of the change.
    const notices = gates
        .filter((g) => g.significantOnly && g.line !== undefined && noise === undefined)
        .map((g) => `${g.origin}: \`significant_only\` now reads the gate's ${g.margin === undefined ? 'max_drop (or other threshold) as its margin' : 'margin'}: it passes when its interval rules out a drop of it, fails when the drop is shown beyond it, and can be inconclusive (docs/gates.md, "What changed")`);
    return { source, alpha, gates, ...testing, notices, ...(noise ? { noise } : {}) };
}
/** The fewest queries a slice needs for a per_slice gate to hold in it (docs/gates.md, "Slices"). */
const DEFAULT_MIN_SLICE_QUERIES = 20;
/** `slices: category` (or a list of breakdown fields) and `min_queries`. */
function parseSlices(top, at) {
    if (top.slices === undefined) {
        if (top.min_queries !== undefined)
            throw new errors_InputError(`${at('min_queries')}: \`min_queries\` is for \`slices\`, which this config does not set`);
        return {};
    }
    const keys = Array.isArray(top.slices) ? top.slices : [top.slices];
    const bad = keys.find((k) => !WHERE_KEYS.includes(k));
    if (keys.length === 0 || bad !== undefined)
        throw new errors_InputError(`${at('slices')}: \`slices\` must be one of ${WHERE_KEYS.join(', ')} or a list of them, got ${inputText_valueText(bad ?? top.slices)}${typeof bad === 'string' ? suggest_suggest(bad, [...WHERE_KEYS]) : ''}`);
    const minQueries = top.min_queries ?? DEFAULT_MIN_SLICE_QUERIES;
    if (typeof minQueries !== 'number' || !Number.isInteger(minQueries) || minQueries < 1)
        throw new errors_InputError(`${at('min_queries')}: \`min_queries\` must be a whole number >= 1, got ${inputText_valueText(minQueries)}`);
    return { slices: { keys: [...new Set(keys)], minQueries } };
}
/** Each per_slice gate against the config: `slices` set, and read by a gate. */
function checkSlices(gates, testing, at) {
    for (const g of gates.filter((gate) => gate.perSlice))
        checkPerSlice(g, testing.slices !== undefined);
    if (testing.slices !== undefined && !gates.some((g) => g.perSlice))
        throw new errors_InputError(`${at('slices')}: \`slices\` is read by a gate with \`per_slice: true\`, and no gate here has one`);
}
/** A per_slice gate is a tested gate on the whole set (it holds in each slice as it holds overall), with slices set. */
function checkPerSlice(g, slicesSet) {
    if (!g.significantOnly && g.margin === undefined)
        throw new errors_InputError(`${g.origin}: \`per_slice\` is for a tested gate: give it a \`margin\` (or significant_only)`);
    if (g.where !== null)
        throw new errors_InputError(`${g.origin}: \`per_slice\` cannot be combined with \`where\`: the slices are the config's \`slices\``);
    if (!slicesSet)
        throw new errors_InputError(`${g.origin}: \`per_slice\` needs \`slices:\` in the config (e.g. \`slices: category\`)`);
}
const REPEATS_KEYS = ['may_differ'];
/**
 * `repeats: {may_differ: [seed, started_at]}`: the config_snapshot_json keys (top-level) a side's repeats may differ
 * in without a warning, in place of compare's default (seed); one key alone may be written without the list. Every
 * error names the line at fault.
 */
function parseRepeats(root, { lineOf, keyLine }, source) {
    const node = root.get('repeats', true);
    if (node == null || ((0,dist/* isScalar */.jn)(node) && node.value === null))
        return {}; // `repeats:` with nothing under it
    const shape = '`repeats` must be a map, e.g. `repeats: {may_differ: [seed, started_at]}`';
    if (!(0,dist/* isMap */.jh)(node))
        throw new errors_InputError(`${source}:${lineOf(node)}: ${shape}`);
    const at = (key) => `${source}:${keyLine(node, key)}`;
    const given = node.toJSON();
    for (const key of Object.keys(given))
        if (!REPEATS_KEYS.includes(key))
            throw new errors_InputError(`${at(key)}: unknown \`repeats\` key \`${key}\`${suggest_suggest(key, REPEATS_KEYS)}`);
    if (given.may_differ === undefined)
        return {};
    const value = given.may_differ ?? []; // `may_differ:` with nothing under it: no key may differ
    const keys = Array.isArray(value) ? value : [value];
    const list = node.get('may_differ', true);
    keys.forEach((key, i) => {
        if (typeof key !== 'string' || key === '') {
            const item = (0,dist/* isSeq */.oP)(list) ? list.items[i] : list;
            throw new errors_InputError(`${source}:${lineOf(item ?? node)}: \`repeats.may_differ\` lists config_snapshot_json keys (strings), got ${inputText_valueText(key)}`);
        }
    });
    return { repeatsMayDiffer: [...new Set(keys)] };
}
const TESTING_DEFAULTS = {
    margin: DEFAULT_MARGIN,
    onInconclusive: 'warn',
    correction: 'holm',
    primary: null,
};
/** The config's testing keys: margin, on_inconclusive, correction, primary, k, mrr_cutoff. */
function parseTesting(top, at) {
    const margin = top.margin ?? DEFAULT_MARGIN;
    if (typeof margin !== 'number' || !(margin >= 0 && Number.isFinite(margin)))
        throw new errors_InputError(`${at('margin')}: \`margin\` must be a number, 0 or more, got ${inputText_valueText(margin)}`);
    const onInconclusive = parseOnInconclusive(top.on_inconclusive, at('on_inconclusive'));
    const correction = top.correction ?? 'holm';
    if (correction !== 'none' && correction !== 'holm' && correction !== 'bh')
        throw new errors_InputError(`${at('correction')}: \`correction\` must be none, holm or bh, got ${inputText_valueText(correction)}`);
    const primary = top.primary ?? null;
    if (primary !== null && (typeof primary !== 'string' || primary === ''))
        throw new errors_InputError(`${at('primary')}: \`primary\` must be a metric id, got ${inputText_valueText(primary)}`);
    const ks = top.k === undefined ? undefined : Array.isArray(top.k) ? top.k : [top.k];
    if (ks !== undefined && (ks.length === 0 || !ks.every(isCutoff)))
        throw new errors_InputError(`${at('k')}: \`k\` must be ${CUTOFF_WORDS} or a list of them, e.g. [1, 5, 10, 20]`);
    const cutoff = top.mrr_cutoff;
    if (cutoff !== undefined && !isCutoff(cutoff))
        throw new errors_InputError(`${at('mrr_cutoff')}: \`mrr_cutoff\` must be ${CUTOFF_WORDS}`);
    return {
        margin,
        onInconclusive: onInconclusive ?? 'warn',
        correction,
        primary: primary,
        ...(ks ? { ks: [...new Set(ks)].sort((a, b) => a - b) } : {}),
        ...(cutoff !== undefined ? { mrrCutoff: cutoff } : {}),
    };
}
function parseOnInconclusive(value, at) {
    if (value === undefined)
        return undefined;
    if (value !== 'fail' && value !== 'warn' && value !== 'pass')
        throw new errors_InputError(`${at}: \`on_inconclusive\` must be fail, warn or pass, got ${inputText_valueText(value)}`);
    return value;
}
/** The gates of the presets `preset` / `presets` name, in order; `line` is where they are named. */
function presetGates(top, line, source, minN) {
    const gates = [];
    const presetNames = [
        top.preset,
        ...(Array.isArray(top.presets) ? top.presets : top.presets !== undefined ? [top.presets] : []),
    ].filter((p) => p !== undefined && p !== null);
    for (const name of presetNames) {
        const preset = typeof name === 'string' ? PRESETS[name] : undefined;
        if (!preset)
            throw new errors_InputError(`${source}:${line}: unknown preset ${JSON.stringify(name)}${suggest_suggest(String(name), Object.keys(PRESETS))} (presets: ${Object.keys(PRESETS).join(', ')})`);
        for (const g of preset)
            gates.push({ where: null, onNoData: 'fail', ...g, minN, origin: `preset ${name}` });
    }
    return gates;
}
/** One item of `gates`, checked key by key; every error names the line of the key at fault. */
function parseGate(item, { lineOf, keyLine }, source, defaultMinN) {
    const line = lineOf(item);
    if (!(0,dist/* isMap */.jh)(item))
        throw new errors_InputError(`${source}:${line}: each gate must be a map with \`metric\` and a threshold`);
    const g = item.toJSON();
    const at = (key) => `${source}:${keyLine(item, key)}`;
    for (const key of Object.keys(g)) {
        if (!GATE_KEYS.has(key))
            throw new errors_InputError(`${at(key)}: unknown gate key \`${key}\`${suggest_suggest(key, [...GATE_KEYS])}`);
    }
    if (typeof g.metric !== 'string' || g.metric === '')
        throw new errors_InputError(`${at('metric')}: a gate needs \`metric\``);
    const thresholds = {};
    for (const key of THRESHOLD_KEYS) {
        if (g[key] === undefined)
            continue;
        if (typeof g[key] !== 'number' || !Number.isFinite(g[key]))
            throw new errors_InputError(`${at(key)}: \`${key}\` must be a number, got ${inputText_valueText(g[key])}`);
        thresholds[key] = g[key];
    }
    const margin = g.margin;
    if (margin !== undefined && (typeof margin !== 'number' || !(margin >= 0 && Number.isFinite(margin))))
        throw new errors_InputError(`${at('margin')}: \`margin\` must be a number, 0 or more, got ${inputText_valueText(margin)}`);
    if (Object.keys(thresholds).length === 0 && margin === undefined)
        throw new errors_InputError(`${source}:${line}: gate on \`${g.metric}\` has no threshold (one of ${THRESHOLD_KEYS.join(', ')}, or margin)`);
    const level = g.level ?? 'error';
    if (level !== 'error' && level !== 'warn')
        throw new errors_InputError(`${at('level')}: \`level\` must be error or warn, got ${JSON.stringify(level)}`);
    const onNoData = g.on_no_data ?? 'fail';
    if (onNoData !== 'fail' && onNoData !== 'warn' && onNoData !== 'pass')
        throw new errors_InputError(`${at('on_no_data')}: \`on_no_data\` must be fail, warn or pass`);
    const minN = g.min_n ?? defaultMinN;
    if (typeof minN !== 'number' || !Number.isInteger(minN) || minN < 0)
        throw new errors_InputError(`${at('min_n')}: \`min_n\` must be a whole number >= 0`);
    if (g.significant_only !== undefined && typeof g.significant_only !== 'boolean')
        throw new errors_InputError(`${at('significant_only')}: \`significant_only\` must be true or false`);
    if (g.per_slice !== undefined && typeof g.per_slice !== 'boolean')
        throw new errors_InputError(`${at('per_slice')}: \`per_slice\` must be true or false`);
    const trade = g.trade === undefined ? undefined : parseTrade(item.get('trade', true), g, keyLine, source, at);
    return {
        metric: g.metric,
        where: g.where === undefined ? null : parseWhere(g.where, at('where')),
        level,
        thresholds,
        significantOnly: g.significant_only === true,
        minN,
        onNoData,
        ...(margin !== undefined ? { margin: margin } : {}),
        ...(g.on_inconclusive !== undefined
            ? { onInconclusive: parseOnInconclusive(g.on_inconclusive, at('on_inconclusive')) }
            : {}),
        origin: `${source}:${line}`,
        line,
        ...(g.per_slice === true ? { perSlice: true } : {}),
        ...(trade ? { trade } : {}),
    };
}
/**
 * A gate's `trade`, checked key by key: on a tested gate over the whole set (a slice's cost is not measured), with
 * a margin above the gate's own and a gain between 0 and 1.
 */
function parseTrade(node, g, keyLine, source, gateAt) {
    const shape = '`trade` must be a map, e.g. `trade: {margin: 0.05, metric: latency_ms, min_gain: 0.25}`';
    if (!(0,dist/* isMap */.jh)(node))
        throw new errors_InputError(`${gateAt('trade')}: ${shape}`);
    const t = node.toJSON();
    // A missing key is named at the `trade` line.
    const at = (key) => (t[key] === undefined ? gateAt('trade') : `${source}:${keyLine(node, key)}`);
    for (const key of Object.keys(t))
        if (!TRADE_KEYS.includes(key))
            throw new errors_InputError(`${at(key)}: unknown \`trade\` key \`${key}\`${suggest_suggest(key, TRADE_KEYS)}`);
    const gateMargin = tradedGateMargin(g, gateAt('trade'));
    const costs = Object.keys(TRADE_COSTS);
    if (typeof t.metric !== 'string' || !costs.includes(t.metric))
        throw new errors_InputError(`${at('metric')}: \`trade.metric\` must be one of ${costs.join(', ')}, got ${inputText_valueText(t.metric)}${typeof t.metric === 'string' ? suggest_suggest(t.metric, costs) : ''}`);
    const margin = t.margin;
    if (typeof margin !== 'number' || !Number.isFinite(margin) || !(margin > gateMargin))
        throw new errors_InputError(`${at('margin')}: \`trade.margin\` must be a number above the gate's margin ${gateMargin} (the larger drop a gain may buy, in the metric's unit), got ${inputText_valueText(margin)}`);
    const minGain = t.min_gain;
    if (typeof minGain !== 'number' || !(minGain > 0 && minGain < 1))
        throw new errors_InputError(`${at('min_gain')}: \`trade.min_gain\` must be a share above 0 and below 1 (0.25: a quarter lower), got ${inputText_valueText(minGain)}`);
    return { margin, cost: t.metric, minGain };
}
/**
 * The margin of a gate that carries a trade, which must be a tested gate over the whole set (its cost is measured
 * there) with an absolute margin, so the trade's margin can be compared with it here: its `margin`, else its
 * `max_drop` or `max_increase`.
 */
function tradedGateMargin(g, at) {
    if (g.significant_only !== true && g.margin === undefined)
        throw new errors_InputError(`${at}: \`trade\` is for a tested gate: give the gate a \`margin\``);
    if (g.where !== undefined || g.per_slice === true)
        throw new errors_InputError(`${at}: \`trade\` cannot be combined with \`${g.where !== undefined ? 'where' : 'per_slice'}\`: a trade is decided over the whole set, where its cost is measured`);
    if (typeof g.margin === 'number')
        return g.margin;
    const relative = ['min', 'max', 'max_drop_pct', 'max_increase_pct'].filter((k) => g[k] !== undefined);
    if (relative.length > 0)
        throw new errors_InputError(`${at}: a trade's margin is in the metric's unit, and this gate's margin comes from \`${relative[0]}\` and the baseline: give the gate a \`margin\``);
    return Math.min(...[g.max_drop, g.max_increase].filter((x) => typeof x === 'number'));
}
/** A gate's `where`: one group, e.g. `{ category: adversarial }`; `at` is its `file:line`. */
function parseWhere(value, at) {
    const w = value;
    const keys = w && typeof w === 'object' && !Array.isArray(w) ? Object.keys(w) : [];
    if (keys.length !== 1)
        throw new errors_InputError(`${at}: \`where\` must name one group, e.g. \`{ category: adversarial }\``);
    const key = keys[0];
    if (!WHERE_KEYS.includes(key))
        throw new errors_InputError(`${at}: \`where\` key \`${key}\` is not one of ${WHERE_KEYS.join(', ')}${suggest_suggest(key, [...WHERE_KEYS])}`);
    const group = w[key];
    if (key === 'answerable') {
        if (typeof group !== 'boolean')
            throw new errors_InputError(`${at}: \`where.answerable\` must be true or false`);
        return { key, value: group ? 'answerable' : 'unanswerable' };
    }
    if (typeof group !== 'string' && typeof group !== 'number')
        throw new errors_InputError(`${at}: \`where.${key}\` must be a string`);
    return { key: key, value: String(group) };
}
/**
 * The settings in force, resolved once, and the config's gates at them: the cutoffs are `given`'s (the command
 * line's, the action's inputs') when set, else the config's `k` and `mrr_cutoff`, else the defaults; the level is the
 * config's alpha. Every k a gate's metric names (`hit@5`, `nDCG@20`, up to CUTOFF_MAX) joins the k list, so the
 * retrieval preset holds under any `k`; the preset's `mrr@10` follows the MRR cutoff, MRR having one. A gate of the
 * config's own on `mrr@N` must name the cutoff in use. The options go to scoring and the comparison; the gates read
 * the level from the comparison (gates.ts, applyGates).
 */
function settingsOf(config, given) {
    const mrrCutoff = given.mrrCutoff ?? config.mrrCutoff ?? DEFAULT_OPTIONS.mrrCutoff;
    const renamed = new Map();
    const gates = config.gates.map((g) => {
        if (!g.origin.startsWith('preset ') || !g.metric.startsWith('mrr@'))
            return g;
        renamed.set(g.metric, `mrr@${mrrCutoff}`);
        return { ...g, metric: `mrr@${mrrCutoff}` };
    });
    const named = gates.flatMap((g) => {
        const k = /^(?!mrr@)[A-Za-z_]+@(\d{1,4})$/.exec(g.metric)?.[1];
        return k !== undefined && isCutoff(Number(k)) ? [Number(k)] : [];
    });
    const ks = [...new Set([...(given.ks ?? config.ks ?? DEFAULT_OPTIONS.ks), ...named])].sort((a, b) => a - b);
    const primary = config.primary === null ? null : (renamed.get(config.primary) ?? config.primary);
    return { config: { ...config, gates, primary }, options: { ...given, ks, mrrCutoff, alpha: config.alpha } };
}

;// CONCATENATED MODULE: ./src/stats/familywise.ts
/**
 * Alpha spent over a family of tested gates, fixed before any data is seen (docs/gates.md, "Error control";
 * docs/decisions/0010-decision-rule.md): Bonferroni, each of m tests at alpha / m, so the chance of any false alarm
 * among them is at most alpha whatever their dependence (Bonferroni's inequality). The config's `holm` and `bh`
 * (Holm 1979, Scandinavian Journal of Statistics 6; Benjamini and Hochberg 1995, JRSS B 57) name the family it
 * spends alpha over; bounds read against a margin in advance cannot step down, so both spend it this way.
 * `correction: none` tests each gate at alpha.
 */
/** How many tests share alpha: 1 under `none`, else the corrected tests (at least 1). */
function familySize(correction, corrected) {
    return correction === 'none' ? 1 : Math.max(1, corrected);
}
/** Each test's level in a family of `size`. */
function levelInFamily(alpha, size) {
    return alpha / size;
}
/** A test's p-value adjusted for a family of `size` (Bonferroni), at most 1. */
function adjustedP(pValue, size) {
    return Math.min(1, size * pValue);
}

;// CONCATENATED MODULE: ./src/numberFormat.ts
/**
 * Numbers as every stage prints them: rounded to 4 decimals on output only (as trec_eval prints), n/a for a null.
 * A leaf module: aggregate (kebab's JSON), gate (threshold text) and render all read it.
 */
function numberFormat_round4(x) {
    // toFixed rounds the exact binary value, as C's printf("%.4f") does in trec_eval.
    const r = Number(x.toFixed(4));
    return Object.is(r, -0) ? 0 : r;
}
/**
 * A p-value to 4 decimals as every output gives it: rounded, except where rounding would carry it across alpha
 * (0.04996 at alpha 0.05 is 0.0499, cut rather than rounded up to 0.0500), so a printed p never contradicts the mark
 * and the outcome beside it, which compare the exact p with alpha.
 */
function numberFormat_shownP(p, alpha) {
    let shown = numberFormat_round4(p);
    // One step of 0.0001 at a time, each rounded again: p * 1e4 itself can round up to the next whole number.
    while (p < alpha && shown >= alpha)
        shown = numberFormat_round4(shown - 1e-4);
    while (p >= alpha && shown < alpha)
        shown = numberFormat_round4(shown + 1e-4);
    return shown;
}
/** A p-value as the reports print it: `shownP`, and `< 0.0001` below that. */
function numberFormat_formatP(p, alpha) {
    if (p === null || p === undefined)
        return '—';
    return p < 0.0001 ? '< 0.0001' : numberFormat_shownP(p, alpha).toFixed(4);
}
function numberFormat_formatValue(value, unit) {
    if (value === null || value === undefined || !Number.isFinite(value))
        return 'n/a';
    if (unit === 'count' || unit === 'tokens')
        return Number.isInteger(value) ? String(value) : numberFormat_round4(value).toFixed(4);
    if (unit === 'ms')
        return Number.isInteger(value) ? String(value) : numberFormat_round4(value).toFixed(1);
    return numberFormat_round4(value).toFixed(4);
}
function formatDelta(value, unit) {
    if (value === null || value === undefined || !Number.isFinite(value))
        return 'n/a';
    const text = numberFormat_formatValue(Math.abs(value), unit);
    if (numberFormat_round4(value) === 0)
        return `±${numberFormat_formatValue(0, unit)}`;
    return `${value > 0 ? '+' : '−'}${text}`;
}
/**
 * A delta as formatDelta prints it, but never `±0` for a value that is not 0: more decimals (up to 10) until its
 * sign shows. For an interval's end, whose side of 0 is the test's answer (a gate's interval leaves 0 exactly when
 * its test is significant), so the printed interval and the outcome cannot disagree by rounding.
 */
function formatDeltaKeepingSign(value, unit) {
    if (value === null || value === undefined || !Number.isFinite(value) || value === 0 || numberFormat_round4(value) !== 0)
        return formatDelta(value, unit);
    let decimals = 5;
    while (decimals < 10 && Number(Math.abs(value).toFixed(decimals)) === 0)
        decimals++;
    return `${value > 0 ? '+' : '−'}${Math.abs(value).toFixed(decimals)}`;
}
/** "1 query", "1,024 queries": a count with its noun. */
function numberFormat_plural(n, one, many) {
    return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

;// CONCATENATED MODULE: ./src/stats/dropBounds.ts
/**
 * One-sided bounds of a paired mean drop, the interval every tested gate reads against its margin
 * (docs/decisions/0010): Student's t with the variance floored as Agresti and Min's added discordant pairs floor
 * it (Agresti and Min, "Simple improved confidence intervals for comparing matched proportions", Statistics in
 * Medicine 24, 2005).
 */

function dropBounds(drops, beta, step) {
    const n = drops.length;
    if (n === 0)
        return { n, meanDrop: 0, se: 0, lower: 0, upper: 0, pValue: 1 };
    let sum = 0;
    for (let i = 0; i < n; i++)
        sum += drops[i];
    const meanDrop = sum / n;
    let squares = 0;
    for (let i = 0; i < n; i++)
        squares += (drops[i] - meanDrop) ** 2;
    const variance = Math.max(n > 1 ? squares / (n - 1) : 0, (2 * step * step) / (n + 1));
    const se = Math.sqrt(variance / n);
    const df = Math.max(1, n - 1);
    const half = studentPoint(normalQuantile(beta), df) * se;
    const pValue = se > 0 ? normalUpperTail(normalPointOf(meanDrop / se, df)) : meanDrop > 0 ? 0 : 1;
    return { n, meanDrop, se, lower: meanDrop - half, upper: meanDrop + half, pValue };
}

;// CONCATENATED MODULE: ./src/gate/testedGates.ts




function isTested(spec) {
    return spec.significantOnly || spec.margin !== undefined;
}
/** The tests a tested gate brings to its family: its bounds, and its trade's gain test (docs/gates.md, "Trades"). */
const testsOf = (spec) => (spec.trade ? 2 : 1);
/** The primary's own family: its bounds and its trade's test split alpha, unless nothing is split (`none`). */
const primaryFamilySize = (spec, correction) => correction === 'none' ? 1 : testsOf(spec);
/** +1 when higher is better: a drop is then baseline - candidate. */
function directionOf(def) {
    return def?.direction === 'lower' ? -1 : 1;
}
/** The per-query drops (positive = worse) of a gate's metric, from the paired differences candidate - baseline. */
function dropsOf(diffs, def) {
    const dir = directionOf(def);
    return diffs.map((d) => (d === 0 ? 0 : -dir * d));
}
/**
 * The numbers of one tested gate: its drops' bounds at 1 - alpha / size, read for a margin in the caller.
 * `step` is the metric's full step (1 for a rate): the pseudo-queries of the bounds (src/stats/signFlip.ts).
 * `noise`: the metric's measured noise floor (the config's `noise:` block), the advice's noise when given.
 */
function testedNumbers(drops, family, alpha, margin, def, noise) {
    const beta = levelInFamily(alpha, family.size);
    const b = dropBounds(drops, beta, stepOf(def, drops));
    const ci = directionOf(def) === 1 ? [-b.upper, -b.lower] : [b.lower, b.upper];
    return {
        pValue: b.pValue,
        meanDrop: b.meanDrop,
        pAdjusted: adjustedP(b.pValue, family.size),
        correction: family.correction,
        dropBounds: [clean(b.lower), clean(b.upper)],
        ci: [clean(ci[0]), clean(ci[1])],
        ciLevel: 1 - 2 * alpha,
        simultaneousOver: family.size,
        significant: b.lower > 0,
        margin,
        ...advice(drops, beta, margin, noise ?? null),
        nPaired: b.n,
    };
}
/**
 * Power is advice, never the outcome: the smallest drop found 80% of the time at the gate's level, and the queries
 * that would bring it to the margin, from the baseline side's measured noise when the config carries it, else from
 * the comparison's differences with their mean change removed (a real change, better or worse, is not noise).
 */
function advice(drops, beta, margin, noise) {
    const model = noise ? noiseFloorModel(noise, drops.length) : noiseModel(drops);
    const mdd = minimumDetectableDrop(model, beta);
    return {
        mdd: Number.isFinite(mdd) ? mdd : null,
        queriesNeeded: mdd > margin ? queriesNeeded(model, beta, margin) : null,
        adviceFrom: noise ? 'noise floor' : 'comparison',
    };
}
/** A rate moves by at most 1 a query; another metric's step is its largest observed change. */
function stepOf(def, drops) {
    if (def?.unit === 'ratio')
        return 1;
    let largest = 0;
    for (const d of drops)
        largest = Math.max(largest, Math.abs(d));
    return largest;
}
/** -0 prints as "-0.0000"; an interval end is 0 then. */
const clean = (x) => (x === 0 ? 0 : x);

;// CONCATENATED MODULE: ./src/gate/gateWords.ts
/** The words every output gives a tested gate's numbers in: its p sentence, its bounds, its detectable drop. */

const CORRECTION_WORDS = {
    none: 'not adjusted',
    holm: 'Bonferroni-adjusted',
    bh: 'Bonferroni-adjusted',
    primary: 'primary, not adjusted',
};
/**
 * The p of a tested gate's bounds, adjusted where alpha is split: "one-sided p 0.0312, Bonferroni-adjusted 0.1250",
 * "..., not adjusted" (correction: none), "..., primary, not adjusted", "..., primary with its trade,
 * Bonferroni-adjusted 0.0624" (the primary's alpha split with its trade's test: `over` 2). The one sentence every
 * output gives it in.
 */
function gatePSentence(pValue, pAdjusted, correction, alpha, over = 1) {
    const adjusted = correction === 'primary' && over > 1
        ? `primary with its trade, Bonferroni-adjusted ${numberFormat_formatP(pAdjusted, alpha)}`
        : correction === 'none' || correction === 'primary'
            ? CORRECTION_WORDS[correction]
            : `${CORRECTION_WORDS[correction]} ${numberFormat_formatP(pAdjusted, alpha)}`;
    return `one-sided p ${numberFormat_formatP(pValue, alpha)}, ${adjusted}`;
}
/** "one-sided p 0.0312, Bonferroni-adjusted 0.1250 ≥ α 0.05". */
function pWords(t, alpha) {
    const p = gatePSentence(t.pValue, t.pAdjusted, t.correction, alpha, t.simultaneousOver);
    return `${p} ${t.significant ? '<' : '≥'} α ${alpha}`;
}
/** "change between −0.0533 and +0.0267 (90%, simultaneous over 4 tests; one-sided p 0.66, ...)". */
function boundsWords(t, alpha, unit) {
    const over = t.simultaneousOver > 1 ? `, simultaneous over ${t.simultaneousOver} tests` : '';
    const level = `${+(t.ciLevel * 100).toFixed(2)}%${over}`;
    const signed = (x) => `${x >= 0 ? '+' : '−'}${numberFormat_formatValue(Math.abs(x), unit)}`;
    return `change between ${signed(t.ci[0])} and ${signed(t.ci[1])} (${level}; ${pWords(t, alpha)})`;
}
/** "with 18 queries a drop of 0.72 or more is found 80% of the time" (advice for an inconclusive gate). */
function detectText(t, unit) {
    const queries = `${t.nPaired.toLocaleString('en-US')} ${t.nPaired === 1 ? 'query' : 'queries'}`;
    const from = t.adviceFrom === 'noise floor' ? ' (at the noise the config records)' : '';
    return t.mdd === null
        ? `with ${queries} no drop is found 80% of the time${from}`
        : `with ${queries} a drop of ${numberFormat_formatValue(t.mdd, unit)} or more is found 80% of the time${from}`;
}

;// CONCATENATED MODULE: ./src/stats/tradeGain.ts
/**
 * A trade's gain: has a cost (latency, money, tokens) fallen by at least a share `minGain`, query by query? The fall
 * is read off the geometric mean of the per-query ratios candidate / baseline and tested one-sided on their logs,
 * Student's t corrected for skew; the gate buys it when the p, adjusted as its own is, is under alpha (src/gate/
 * trades.ts; docs/gates.md, "Trades"; docs/decisions/0013-trades.md says why ratios and why the correction).
 */

/**
 * The fewest queries with the cost on both sides a gain is tested on: fewer often miss a rare slowdown altogether
 * and "show" a gain that is not there (docs/decisions/0013-trades.md).
 */
const MIN_TRADE_QUERIES = 100;
/**
 * The gain over the queries with the cost above 0 in both runs (0 in both is no change, and counts as a ratio of 1).
 * A query at 0 in one run only has no ratio: the gain is then shown without a test, since any price read for the 0
 * would decide it (docs/decisions/0013-trades.md).
 */
function tradeGain(baseline, candidate, minGain) {
    const n = baseline.length;
    // Each query's log excess over the wanted fall, positive when it fell by more than minGain; their mean is > 0
    // exactly when the measured gain is > minGain.
    const excess = [];
    let [sum, priced, oneSidedZeros] = [0, 0, 0];
    for (let i = 0; i < n; i++) {
        const [b, c] = [baseline[i], candidate[i]];
        if (b > 0 !== c > 0) {
            oneSidedZeros++;
            continue;
        }
        const logRatio = b > 0 ? Math.log(c / b) : 0;
        if (b > 0)
            priced++;
        sum += logRatio;
        excess.push(Math.log(1 - minGain) - logRatio);
    }
    const gain = priced === 0 ? null : 1 - Math.exp(sum / excess.length);
    const tested = gain !== null && n >= MIN_TRADE_QUERIES && oneSidedZeros === 0;
    return { gain, pValue: tested ? skewCorrectedP(Float64Array.from(excess)) : null, n, oneSidedZeros };
}
/**
 * One-sided p of "the mean is at most 0" for values that may be skewed (most queries a little faster, a few much
 * slower: Student's t alone then "shows" gains that are not there too often; docs/decisions/0013-trades.md), by
 * Hall's monotone transformation of the t statistic (Hall, "On the removal of skewness by transformation", JRSS B
 * 54, 1992): g(t) = t + γ/(6√n) + γt²/(3√n) + γ²t³/(27n), γ the sample skewness, read as Student's t with n - 1
 * degrees of freedom. The variance is floored as the gates' bounds floor it (dropBounds.ts), with the values' range
 * as the step: every ratio lower by the same share moves the mean and not the spread, so it never raises the p.
 */
function skewCorrectedP(values) {
    const n = values.length;
    let [sum, low, high] = [0, Infinity, -Infinity];
    for (const x of values)
        [sum, low, high] = [sum + x, Math.min(low, x), Math.max(high, x)];
    const mean = sum / n;
    let [m2, m3] = [0, 0];
    for (const x of values)
        [m2, m3] = [m2 + (x - mean) ** 2, m3 + (x - mean) ** 3];
    const variance = Math.max(m2 / (n - 1), (2 * (high - low) ** 2) / (n + 1));
    if (variance === 0)
        return mean > 0 ? 0 : 1;
    const t = mean / Math.sqrt(variance / n);
    const skew = m2 > 0 ? m3 / n / (m2 / n) ** 1.5 : 0;
    const root = Math.sqrt(n);
    const g = t + skew / (6 * root) + (skew * t * t) / (3 * root) + (skew * skew * t ** 3) / (27 * n);
    return normalUpperTail(normalPointOf(g, n - 1));
}

;// CONCATENATED MODULE: ./src/gate/trades.ts





/** The gain's test over the queries with the cost on both sides, at the level of its gate (`gate`'s family). */
function tradeResultOf(trade, pairedQuantityOf, gate, alpha) {
    const cost = TRADE_COSTS[trade.cost];
    const paired = pairedQuantityOf?.(cost.quantity) ?? null;
    const g = paired ? tradeGain(paired.baseline, paired.candidate, trade.minGain) : null;
    const p = g?.pValue ?? null;
    // Bought on the adjusted p itself, so `bought` and `p_adjusted < alpha` are one comparison, never two roundings.
    const adjusted = p === null ? null : adjustedP(p, gate.simultaneousOver);
    return {
        metric: trade.cost,
        margin: trade.margin,
        min_gain: trade.minGain,
        gain: g?.gain ?? null,
        p_value: p,
        p_adjusted: adjusted,
        n_paired: g?.n ?? 0,
        one_sided_zeros: g?.oneSidedZeros ?? 0,
        bought: adjusted !== null && adjusted < alpha,
    };
}
/** "47% lower latency" (a rise reads "12% higher latency"). */
function gainText(t) {
    const words = TRADE_COSTS[t.metric].words;
    if (t.gain === null)
        return `no ${words} to compare`;
    return `${percent(Math.abs(t.gain))} ${t.gain >= 0 ? 'lower' : 'higher'} ${words}`;
}
/** A share in percent: whole above 1% ("49%"), else to a tenth ("0.4%"); a min_gain as written ("12.5%"). */
const percent = (share, exact = false) => `${exact || share < 0.01 ? +(share * 100).toFixed(exact ? 2 : 1) : Math.round(share * 100)}%`;
/** "or < 0.0500 for 25% lower latency", the part of a gate's threshold its trade adds. */
function tradeThresholdText(trade, unit) {
    return `or < ${numberFormat_formatValue(trade.margin, unit)} for ${percent(trade.minGain, true)} lower ${TRADE_COSTS[trade.cost].words}`;
}
/**
 * "47% lower latency, a fall of 25% or more shown (1,000 queries; one-sided p 0.0001, Bonferroni-adjusted 0.0004 <
 * α 0.05)", in the p sentence of the gate's own test.
 */
function gainWords(t, family, alpha) {
    const quantity = TRADE_COSTS[t.metric].quantity;
    if (t.n_paired === 0)
        return `no query has ${quantity} in both runs, so the trade's gain cannot be tested`;
    if (t.gain === null)
        return `${quantity} is 0 for every query of both runs, so the trade's gain cannot be tested`;
    if (t.p_value === null && t.one_sided_zeros > 0)
        return `${gainText(t)}, but ${numberFormat_plural(t.one_sided_zeros, 'query has', 'queries have')} ${quantity} 0 in one run only: a ratio cannot say how far a free query fell, so the gain is not tested`;
    if (t.p_value === null)
        return `${gainText(t)}, but only ${numberFormat_plural(t.n_paired, 'query has', 'queries have')} ${quantity} in both runs, fewer than the ${MIN_TRADE_QUERIES} a gain is tested on`;
    const need = `a fall of ${percent(t.min_gain, true)} or more`;
    const p = `${gatePSentence(t.p_value, t.p_adjusted, family.correction, alpha, family.simultaneousOver)} ${t.bought ? '<' : '≥'} α ${alpha}`;
    return `${gainText(t)}, ${t.bought ? `${need} shown` : `${need} not shown`} (${numberFormat_plural(t.n_paired, 'query', 'queries')}; ${p})`;
}
/**
 * Why a gate with a trade was not traded: "not traded: a drop of the trade's margin 0.0600 is not ruled out (49% lower
 * latency)", or "not traded: the trade's margin 0.0600 holds, but 5% lower latency, a fall of 25% or more not shown
 * (...)".
 */
function untradedText(t, family, alpha, unit) {
    const margin = numberFormat_formatValue(t.margin, unit);
    return t.margin_holds
        ? `not traded: the trade's margin ${margin} holds, but ${gainWords(t, family, alpha)}`
        : `not traded: a drop of the trade's margin ${margin} is not ruled out (${gainText(t)})`;
}
/** The gates a trade passed, for the verdict line. */
const tradedGates = (gates) => gates.filter((g) => g.trade?.traded === true);

;// CONCATENATED MODULE: ./src/gate/gates.ts
/** Applying gates to a comparison: each gate's actual values, threshold, result, and the verdict. Pure. */








/** Gate-only metrics: per-query outcome counts of the comparison (candidate side only). */
const COUNT_METRICS = {
    regressions: 'regression',
    losses: 'loss',
    wins: 'win',
    answer_regressions: 'answer_regression',
};
const EPS = 1e-12;
/** Absolute thresholds in the metric's unit (a count gate reads `≤ 0`, not `≤ 0.0000`). */
function describeThreshold(key, x, unit) {
    switch (key) {
        case 'min':
            return `≥ ${numberFormat_formatValue(x, unit)}`;
        case 'max':
            return `≤ ${numberFormat_formatValue(x, unit)}`;
        case 'max_drop':
            return `drop ≤ ${numberFormat_formatValue(x, unit)}`;
        case 'max_increase':
            return `increase ≤ ${numberFormat_formatValue(x, unit)}`;
        case 'max_drop_pct':
            return `drop ≤ ${x}%`;
        case 'max_increase_pct':
            return `increase ≤ ${x}%`;
    }
}
/** Is the threshold met? Relative thresholds against a baseline of 0 treat any change in that direction as infinite. */
function meets(key, x, baseline, candidate) {
    const delta = baseline === null ? null : candidate - baseline;
    switch (key) {
        case 'min':
            return candidate >= x - EPS;
        case 'max':
            return candidate <= x + EPS;
        case 'max_drop':
            return delta >= -x - EPS;
        case 'max_increase':
            return delta <= x + EPS;
        case 'max_drop_pct':
            return baseline === 0 ? delta >= -EPS : (delta / Math.abs(baseline)) * 100 >= -x - EPS;
        case 'max_increase_pct':
            return baseline === 0 ? delta <= EPS : (delta / Math.abs(baseline)) * 100 <= x + EPS;
    }
}
function needsBaseline(spec) {
    return isTested(spec) || Object.keys(spec.thresholds).some((k) => k !== 'min' && k !== 'max');
}
/**
 * The comparison gated: every gate of `config` evaluated, and the verdict, added to the report. The gates test at the
 * level the comparison was tested at, so the report's ▲ / ▼ and a tested gate agree; settingsOf (config.ts) gives
 * the comparison the config's alpha.
 */
function applyGates(compared, config) {
    const { report: comparison, defs, groupSizes } = compared;
    const gates = evaluateGates(withSliceGates(config, groupSizes), {
        defs: new Map(defs.map((d) => [d.id, d])),
        metrics: comparison.metrics,
        breakdowns: comparison.breakdowns,
        groupSizes,
        counts: comparison.counts,
        alpha: comparison.alpha,
        hasBaseline: comparison.baseline !== null,
        pairedDiffsOf: compared.pairedDiffsOf,
        pairedQuantityOf: compared.pairedQuantityOf,
        failingQueriesOf: compared.failingQueriesOf,
        seed: comparison.options.seed,
        permutations: comparison.options.permutations,
    });
    return { report: { ...comparison, verdict: verdictOf(gates), gates }, defs };
}
/**
 * The config with each `per_slice` gate followed by one gate a slice: every value of each `slices` field, in name
 * order, gated as the gate is (its margin and test) on that slice's queries, with `min_queries` as its min_n (a
 * smaller slice is shown, never enforced). They join the tested gates' family, so alpha is split over the slices
 * and the gates together (docs/gates.md, "Slices").
 */
function withSliceGates(config, groupSizes) {
    const slices = config.slices;
    if (slices === undefined || !config.gates.some((g) => g.perSlice))
        return config;
    const sliceGates = (g) => slices.keys.flatMap((key) => {
        const values = Object.keys(groupSizes[key] ?? {}).sort();
        if (values.length === 0)
            throw new errors_InputError(`${g.origin}: \`per_slice\` has no slice of \`${key}\`: no golden query has a ${key} (\`slices\` names the golden set's fields)`);
        return values.map((value) => ({
            ...g,
            perSlice: false,
            slice: true,
            where: { key, value },
            minN: slices.minQueries,
        }));
    });
    const gates = config.gates.flatMap((g) => (g.perSlice ? [g, ...sliceGates(g)] : [g]));
    if (gates.length > MAX_GATES) {
        const origin = config.gates.find((g) => g.perSlice).origin;
        throw new errors_InputError(`${origin}: \`per_slice\` makes ${gates.length} gates with this golden set's ${slices.keys.join(' and ')} values, more than the ${MAX_GATES} a report can show in a pull request comment: slice by fewer fields, or by one with fewer values`);
    }
    return { ...config, gates };
}
/**
 * Every gate evaluated. Tested gates split alpha among themselves in advance (Bonferroni over the corrected ones, a
 * trade's gain test counted as one more; docs/gates.md, "Error control"), so each gate's bounds depend on its own
 * data and the family's size only.
 */
function evaluateGates(config, ctx) {
    const pending = config.gates.map((spec) => pendingTest(spec, config, ctx));
    const corrected = pending.reduce((n, t, i) => (t && !t.primary ? n + testsOf(config.gates[i]) : n), 0);
    const split = familySize(config.correction, corrected);
    return config.gates.map((spec, i) => {
        const t = pending[i];
        const margin = marginOf(spec, config, ctx);
        const numbers = t
            ? testedNumbers(t.drops, t.primary
                ? { correction: 'primary', size: primaryFamilySize(spec, config.correction) }
                : { correction: config.correction, size: split }, ctx.alpha, margin, ctx.defs.get(spec.metric), 
            // The advice reads the baseline side's measured noise when the config records it (evalverdict calibrate).
            config.noise?.metrics[spec.metric] ?? null)
            : null;
        const result = evaluateGate(spec, ctx, numbers, {
            margin,
            onInconclusive: spec.onInconclusive ?? config.onInconclusive,
            trade: spec.trade && numbers ? tradeResultOf(spec.trade, ctx.pairedQuantityOf, numbers, ctx.alpha) : null,
        });
        // A slice says how many queries it has, tested or not (the Slices table, the verdict line).
        return spec.slice && spec.where
            ? { ...result, slice_queries: ctx.groupSizes[spec.where.key]?.[spec.where.value] ?? 0 }
            : result;
    });
}
/**
 * A tested gate's margin, the drop that matters: its own `margin`; else its own thresholds as a drop from the
 * baseline (`max_drop` 0.02 is a margin of 0.02, `max_drop_pct` 5 of 5% of the baseline, `min` 0.8 of the
 * baseline's distance to 0.8; the smallest when several); else the config's `margin`.
 */
function marginOf(spec, config, ctx) {
    if (spec.margin !== undefined)
        return spec.margin;
    // A group's gate (a slice) reads its thresholds against the group's own baseline.
    const m = spec.where ? ctx.breakdowns[spec.where.key]?.[spec.where.value]?.[spec.metric] : ctx.metrics[spec.metric];
    const b = m?.baseline ?? null;
    const own = Object.entries(spec.thresholds).flatMap(([k, x]) => {
        switch (k) {
            case 'max_drop':
            case 'max_increase':
                return [x];
            case 'max_drop_pct':
            case 'max_increase_pct':
                return b === null ? [] : [(x / 100) * Math.abs(b)];
            case 'min':
                return b === null ? [] : [b - x];
            case 'max':
                return b === null ? [] : [x - b];
            default:
                return [];
        }
    });
    return own.length > 0 ? Math.min(...own) : config.margin;
}
/** The paired drops of a tested gate that has paired data; null for every other gate. */
function pendingTest(spec, config, ctx) {
    const def = ctx.defs.get(spec.metric);
    if (!isTested(spec) || !def?.paired || ctx.hasBaseline === false)
        return null;
    // A slice (a `where` group) is tested only when it has min_n queries: a smaller one is shown, not enforced.
    const w = spec.where;
    if (w !== null && (ctx.groupSizes[w.key]?.[w.value] ?? 0) < Math.max(1, spec.minN))
        return null;
    const m = w === null ? ctx.metrics[spec.metric] : ctx.breakdowns[w.key]?.[w.value]?.[spec.metric];
    if (!m?.comparable)
        return null;
    const diffs = ctx.pairedDiffsOf?.(spec.metric, w ?? undefined);
    if (!diffs || diffs.length === 0)
        return null;
    return {
        drops: dropsOf(diffs, def),
        primary: w === null && config.primary !== null && config.primary === spec.metric,
    };
}
function evaluateGate(spec, ctx, tested, how) {
    const countKey = COUNT_METRICS[spec.metric];
    const def = ctx.defs.get(spec.metric);
    checkGate(spec, ctx, countKey, def);
    const base = gateBase(spec, countKey ? 'count' : def?.unit, ctx.alpha, how.margin);
    if (ctx.hasBaseline === false && (countKey || needsBaseline(spec))) {
        const m = spec.where ? undefined : ctx.metrics[spec.metric];
        return {
            ...base,
            baseline: null,
            candidate: m?.candidate ?? null,
            delta: null,
            result: 'no_data',
            effect: noDataEffect(spec),
            note: `no baseline: a candidate-only report has nothing to compare with; on_no_data: ${spec.onNoData}`,
        };
    }
    if (countKey)
        return countGate(spec, base, ctx.counts[countKey]);
    if (!spec.where && isTested(spec)) {
        return testedGate(spec, base, def, ctx.metrics[spec.metric], tested, how, ctx.alpha);
    }
    if (!spec.where)
        return withFailingQueries(metricGate(spec, base, def, ctx.metrics[spec.metric]), def, ctx);
    const m = ctx.breakdowns[spec.where.key]?.[spec.where.value]?.[spec.metric];
    const notGated = groupNotGated(spec, spec.where, base, m, ctx);
    if (notGated !== null)
        return notGated;
    // A slice where the metric has no paired value (unanswerable queries for a rank metric) has nothing to hold.
    if (spec.slice && tested === null && isTested(spec))
        return informational(base, m, `no query of slice ${spec.where.key}=${spec.where.value} has \`${spec.metric}\` in both runs`);
    return isTested(spec) ? testedGate(spec, base, def, m, tested, how, ctx.alpha) : metricGate(spec, base, def, m);
}
/**
 * Every gate of `config` checked against the metric table `defs` as evaluation checks it (checkGate), before any
 * comparison: `evalverdict power` refuses what compare would, in its words.
 */
function checkGates(config, defs) {
    const ctx = { defs: new Map(defs.map((d) => [d.id, d])) };
    for (const spec of config.gates)
        checkGate(spec, ctx, COUNT_METRICS[spec.metric], ctx.defs.get(spec.metric));
}
/** A gate the comparison cannot answer is a mistake in the config: an InputError naming where the gate was written. */
function checkGate(spec, ctx, countKey, def) {
    if (!countKey && !def) {
        throw new errors_InputError(`${spec.origin}: unknown metric \`${spec.metric}\`${suggest_suggest(spec.metric, [...ctx.defs.keys(), ...Object.keys(COUNT_METRICS)])} (run \`evalverdict metrics\` for the list)`);
    }
    const testKey = spec.significantOnly ? 'significant_only' : 'margin';
    if (isTested(spec) && !def?.paired) {
        const paired = [...ctx.defs.values()].filter((d) => d.paired).map((d) => d.id);
        throw new errors_InputError(`${spec.origin}: \`${testKey}\` needs a metric with a paired test (${paired.join(', ')}); \`${spec.metric}\` has none`);
    }
    if (countKey && (needsBaseline(spec) || spec.where)) {
        throw new errors_InputError(`${spec.origin}: \`${spec.metric}\` is a count of per-query outcomes: use min or max, without where`);
    }
}
function gateBase(spec, unit, alpha, margin) {
    const own = Object.entries(spec.thresholds).map(([k, x]) => describeThreshold(k, x, unit));
    const trade = spec.trade ? `, ${tradeThresholdText(spec.trade, unit)}` : '';
    const threshold = isTested(spec)
        ? `${spec.margin === undefined && own.length ? own.join(' and ') : `drop < ${numberFormat_formatValue(margin, unit)} (margin)`}${trade} (bounds at α ${alpha})`
        : own.join(' and ');
    return {
        metric: spec.metric,
        level: spec.level,
        ...spec.thresholds,
        ...(spec.significantOnly ? { significant_only: true } : {}),
        threshold,
        ...(spec.where
            ? {
                where: {
                    [spec.where.key]: spec.where.key === 'answerable' ? spec.where.value === 'answerable' : spec.where.value,
                },
            }
            : {}),
        ...(spec.slice ? { slice: true } : {}),
        ...(spec.perSlice ? { per_slice: true } : {}),
        ...(spec.line !== undefined ? { line: spec.line } : {}),
    };
}
const failResult = (spec) => (spec.level === 'error' ? 'fail' : 'warn');
const noDataEffect = (spec) => spec.onNoData === 'pass' ? 'none' : spec.onNoData === 'warn' ? 'warn' : failResult(spec);
function countGate(spec, base, candidate) {
    const ok = Object.entries(spec.thresholds).every(([k, x]) => meets(k, x, null, candidate));
    return {
        ...base,
        baseline: null,
        candidate,
        delta: null,
        result: ok ? 'pass' : failResult(spec),
        effect: ok ? 'none' : failResult(spec),
        note: '',
    };
}
/** A group's gate shown with its values and `why`, never enforced. */
function informational(base, m, why) {
    return {
        ...base,
        baseline: m?.baseline ?? null,
        candidate: m?.candidate ?? null,
        delta: m?.delta ?? null,
        result: 'info',
        effect: 'none',
        note: `informational: ${why}; not enforced`,
    };
}
/** A `where` group no golden query has (no data), or one smaller than min_n (shown, not enforced); else null. */
function groupNotGated(spec, where, base, m, ctx) {
    const groups = ctx.groupSizes[where.key] ?? {};
    const size = groups[where.value] ?? 0;
    if (size === 0) {
        // A group no golden query has is most often a typo: reading it as "too small to enforce" would turn the gate off.
        const known = Object.keys(groups).sort();
        return {
            ...base,
            baseline: null,
            candidate: null,
            delta: null,
            result: 'no_data',
            effect: noDataEffect(spec),
            note: `no data: no golden query has ${where.key}=${where.value}${suggest_suggest(where.value, known)}` +
                `${known.length > 0 && known.length <= 12 ? ` (groups: ${known.join(', ')})` : ''}; on_no_data: ${spec.onNoData}`,
        };
    }
    if (size < spec.minN) {
        return informational(base, m, `group ${where.key}=${where.value} has ${size} ${size === 1 ? 'query' : 'queries'}, fewer than min_n ${spec.minN}`);
    }
    return null;
}
/** An untested gate on a metric: its thresholds against the values, no test (and so no p-value). */
function metricGate(spec, base, def, m) {
    const values = unavailable(spec, base, m);
    if ('result' in values)
        return values;
    const { baseline, candidate } = values;
    const violated = Object.entries(spec.thresholds).filter(([k, x]) => !meets(k, x, baseline, candidate));
    if (violated.length === 0)
        return { ...values, result: 'pass', effect: 'none', note: '' };
    return { ...values, result: failResult(spec), effect: failResult(spec), note: relativeNote(def, spec, m) };
}
/** The most query ids a failed answer gate lists (the count is always given). */
const MAX_FAILING_QUERIES = 100;
/**
 * A failed gate on an answer metric with a per-query value names the candidate's queries that failed it: those
 * whose value is the bad end (0 for higher-is-better, 1 for lower-is-better).
 */
function withFailingQueries(g, def, ctx) {
    if (g.result !== 'fail' && g.result !== 'warn')
        return g;
    if (!def?.perQuery || (def.family !== 'answers' && def.family !== 'abstention'))
        return g;
    const ids = ctx.failingQueriesOf?.(def.id, def.direction === 'lower' ? 1 : 0);
    if (!ids || ids.length === 0)
        return g;
    return { ...g, failing_queries: ids.slice(0, MAX_FAILING_QUERIES), failing_count: ids.length };
}
/** The values a gate reads, or its result when the runs cannot be compared or a value is missing. */
function unavailable(spec, base, m) {
    const baseline = m?.baseline ?? null;
    const candidate = m?.candidate ?? null;
    const values = { ...base, baseline, candidate, delta: m?.delta ?? null };
    if (m && !m.comparable) {
        return {
            ...values,
            result: 'not_comparable',
            effect: 'none',
            note: 'judge settings differ between the runs: shown, not gated',
        };
    }
    if (candidate === null || (needsBaseline(spec) && baseline === null)) {
        return {
            ...values,
            result: 'no_data',
            effect: noDataEffect(spec),
            note: `no data: ${candidate === null ? 'candidate' : 'baseline'} value is null (zero denominator); on_no_data: ${spec.onNoData}`,
        };
    }
    return values;
}
/** Nothing for absolute thresholds; the relative change for a relative one, which the delta alone does not show. */
function relativeNote(_def, spec, m) {
    if (spec.thresholds.max_drop_pct === undefined && spec.thresholds.max_increase_pct === undefined)
        return '';
    return m?.rel_delta === null || m?.rel_delta === undefined
        ? 'baseline is 0: any change in that direction is infinite'
        : `${m.rel_delta >= 0 ? '+' : ''}${(m.rel_delta * 100).toFixed(1)}% of the baseline`;
}
const inconclusiveEffect = (spec, on) => on === 'pass' ? 'none' : on === 'warn' ? 'warn' : failResult(spec);
/**
 * A tested gate: fail, pass or inconclusive, its drop's bounds against its margin (src/gate/testedGates.ts); with a
 * trade, a drop ruled out at the trade's margin passes when the trade's gain is shown (src/gate/trades.ts).
 */
function testedGate(spec, base, def, m, tested, { onInconclusive, trade }, alpha) {
    const values = unavailable(spec, base, m);
    if ('result' in values)
        return values;
    if (!tested) {
        return {
            ...values,
            result: 'no_data',
            effect: noDataEffect(spec),
            note: `no data: no query has a value in both runs, so the paired test cannot run; on_no_data: ${spec.onNoData}`,
        };
    }
    const unit = def?.unit;
    const [lower, upper] = tested.dropBounds;
    const t = trade && { ...trade, margin_holds: upper < trade.margin, traded: false };
    const withTest = {
        ...values,
        ...testFields(tested),
        ...pairedDelta(values.delta, -directionOf(def) * tested.meanDrop),
        ...(t ? { trade: t } : {}),
    };
    const margin = numberFormat_formatValue(tested.margin, unit);
    const bounds = boundsWords(tested, alpha, unit);
    if (upper < tested.margin) {
        const what = tested.significant
            ? `a real drop of ${numberFormat_formatValue(tested.meanDrop, unit)}, within the margin ${margin}`
            : `no drop of the margin ${margin} or more`;
        return { ...withTest, result: 'pass', effect: 'none', note: `${what}: ${bounds}` };
    }
    if (t?.bought && t.margin_holds) {
        const drop = `a drop of ${numberFormat_formatValue(tested.meanDrop, unit)} for ${gainText(t)}`;
        const note = `traded: ${drop}, within the trade's margin ${numberFormat_formatValue(t.margin, unit)}: ${bounds}; ${gainWords(t, tested, alpha)}`;
        return { ...withTest, trade: { ...t, traded: true }, result: 'pass', effect: 'none', note };
    }
    // What the trade lacked, said after the outcome.
    const untraded = t ? `; ${untradedText(t, tested, alpha, unit)}` : '';
    if (lower > tested.margin) {
        const note = `a drop beyond the margin ${margin}: ${bounds}${untraded}`;
        return { ...withTest, result: failResult(spec), effect: failResult(spec), note };
    }
    return {
        ...withTest,
        result: 'inconclusive',
        effect: inconclusiveEffect(spec, onInconclusive),
        note: `inconclusive: a drop of the margin ${margin} is neither ruled out nor shown: ${bounds}; ${detectText(tested, unit)}${untraded}; on_inconclusive: ${onInconclusive}`,
    };
}
/** The paired mean change, where it is not the change of the two means (beyond rounding noise). */
function pairedDelta(delta, paired) {
    const same = delta !== null && Math.abs(delta - paired) <= EPS * Math.max(1, Math.abs(delta));
    return same ? {} : { paired_delta: paired === 0 ? 0 : paired };
}
function testFields(t) {
    return {
        p_value: t.pValue,
        p_adjusted: t.pAdjusted,
        correction: t.correction,
        ci: t.ci,
        ci_level: t.ciLevel,
        simultaneous_over: t.simultaneousOver,
        margin: t.margin,
        min_detectable_drop: t.mdd,
        queries_needed: t.queriesNeeded,
        n_paired: t.nPaired,
    };
}
function verdictOf(gates) {
    if (gates.some((g) => g.effect === 'fail'))
        return 'fail';
    if (gates.some((g) => g.effect === 'warn'))
        return 'warn';
    return 'pass';
}

;// CONCATENATED MODULE: ./src/render/escape.ts
/**
 * Escaping untrusted text (queries, answers, snippets, ids, file names) for GitHub Markdown. After this a
 * value cannot break a table row, open or close HTML (so not `<details>` nor our hidden `<!-- -->` marker),
 * start a link, image, code span or emphasis, notify anyone (an `@` GitHub could read as a mention, an e-mail
 * address or a `user@SHA` commit gets a zero-width space after it; `hit@5` and `a@b` keep theirs plain), reference an
 * issue (`#123`, `GH-123`: a zero-width space inside) or link a commit (a 40-hex SHA: a zero-width space inside).
 * Invisible and bidi formatting characters are dropped, and lone surrogates shown as U+FFFD.
 */
// C0/C1 controls, and every default-ignorable code point (Unicode's Default_Ignorable_Code_Point: what renders as
// nothing): bidi marks, embeddings, overrides and isolates (they can make a cell read differently from what it
// holds), zero-width space and joiners, the word joiner and invisible operators, the byte order mark, the soft
// hyphen, the combining grapheme joiner, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Mongolian and
// other variation selectors, and the tag characters (U+E0000-U+E0FFF, which can carry hidden ASCII). Text that
// looks alike must read alike, so an id cannot pass for another (the list: docs/cli.md, "Text from inputs").
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u180e\p{Default_Ignorable_Code_Point}]/gu;
// A UTF-16 surrogate without its other half (a cut in the middle of a pair, or text that was never well-formed):
// shown as U+FFFD, as JSON and the GitHub API would otherwise refuse or mangle the whole body.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// A commit SHA (40 hex digits, or 64 for SHA-256) that GitHub would link to a commit: broken after its sixth digit,
// where too few digits remain before the break to name a commit.
const SHA = /\b([0-9a-f]{6})([0-9a-f]{34}(?:[0-9a-f]{24})?)\b/gi;
// Characters with inline Markdown meaning anywhere in a line: code, emphasis, links and images (via the
// brackets), table pipes, strikethrough, math. Each gets a backslash (GFM escapes any ASCII punctuation).
// Block markers (#, -, 1.) only act at the start of a line, and escaped text never starts one.
const PUNCTUATION = /[\\`*_[\]|~$]/g;
// An `@` GitHub could turn into something: a mention (`@name`, `@org/team`), found only where the `@` starts the
// text or follows a character other than an ASCII letter, digit or `_` (html-pipeline's MentionFilter, `(?:^|\W)@`,
// a name starting with a letter or digit); an e-mail autolink (`a@b.c`: a domain with a dot, its `_` escaped by
// now); a commit as `user@SHA` (7 or more hex digits). Either case (the `i` flag). Read on the escaped text, where an
// entity or backslash escape ends in `;` or in the character it stands for, so the character before the `@` is a
// word character exactly when it was one.
const LINKABLE_AT = /(?<![a-z0-9_])@(?=[a-z0-9])|@(?=(?:[\w-]|\\_)+(?:\.(?:[\w-]|\\_)+)+)|@(?=[0-9a-f]{7,}(?![\w-]))/gi;
function escapeMarkdownText(text, maxLength = Infinity) {
    let s = String(text).replace(LONE_SURROGATE, '\ufffd').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
    // Cut by code point: a pair is never split.
    if (s.length > maxLength) {
        let end = Math.max(1, maxLength - 1);
        if (/[\udc00-\udfff]/.test(s[end]))
            end--;
        s = `${s.slice(0, end).trimEnd()}…`;
    }
    s = s
        .replace(/&/g, '&amp;')
        // No issue or pull request references: `#123`, `owner/repo#123` and `GH-123` link (and cross-reference the
        // issue, which shows on its timeline) whatever backslashes precede them. Before any entity is written, whose
        // `&#8203;` this would split.
        .replace(/#(?=\d)/g, '#&#8203;')
        .replace(/\b(gh)-(?=\d)/gi, '$1&#8203;-')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(PUNCTUATION, (c) => `\\${c}`)
        // No autolinks: `https://x` and `www.x` would become links. A backslash is not enough: GFM's autolink
        // literals are also found in the text after escapes are resolved (`http\://x` reads as `http://x`, and
        // `_www.x` as `_www.x`), so a zero-width space goes inside the pattern instead.
        .replace(/:\/\//g, ':/&#8203;/')
        .replace(/www\./gi, (w) => `${w.slice(0, 3)}&#8203;.`)
        .replace(SHA, '$1&#8203;$2')
        .replace(LINKABLE_AT, '@&#8203;');
    return s;
}
/** For a table cell: the same escaping; an empty value shows as an em dash so the row keeps its shape. */
function escapeMarkdownCell(text, maxLength = 160) {
    if (text === null || text === undefined)
        return '—';
    // Checked after escaping: text of only controls or bidi marks is empty once they are dropped.
    return escapeMarkdownText(String(text), maxLength) || '—';
}
/**
 * A metric id as a code span. Ids are ours, except the per-stage latency ids, which carry a `timings_ms` key from
 * the run database: one with anything but plain id characters is escaped like other untrusted text instead
 * (a `|` or a backtick inside a code span would still split the cell or end the span).
 */
function metricCode(id) {
    return /^[\w@.-]+$/.test(id) ? `\`${id}\`` : escapeMarkdownText(id, 80);
}

;// CONCATENATED MODULE: ./src/stats/changePoint.ts
/**
 * Whether main itself shifted: one change in a metric's level, anywhere in main's runs, tested so that runs which
 * follow each other (autocorrelated, as real histories are) raise no more false alarms than independent ones
 * (docs/history.md, "Change point").
 *
 * The model: run t's value is level + shift x [t >= start] + e_t, the noise e an AR(1) process with coefficient phi
 * (phi = 0: independent runs). For a known phi the prewhitened residuals r_t = x_t - phi x_{t-1} (t >= 1) are
 * independent and identically distributed when there is no shift, so a permutation test on them is exact; its
 * statistic is the largest standardized score of r on the whitened step (1 at the start, 1 - phi after it) over the
 * starts with MIN_SEGMENT runs or more on either side. phi is unknown: the p-value is the largest over the grid
 * coefficients 0, 0.05, ..., AR_MAX that the series' own autocorrelation does not rule out (arBound: a one-sided 90%
 * bound, calibrated by simulating Gaussian AR(1) series through the same estimator), a confidence-set-restricted
 * maximized Monte Carlo test (Dufour, "Monte Carlo tests with nuisance parameters", Journal of Econometrics 133,
 * 2006; mean shifts in correlated series: Robbins, Gallagher, Lund and Aue, Journal of Time Series Analysis 32, 2011). phi = 0 is always among them, so for exchangeable runs (independent,
 * any distribution, ties included) the false-alarm rate is at most alpha exactly; for AR(1) runs up to 0.6 it was
 * measured at or below alpha (test/changePointAutocorrelated.test.ts). Values so large that a sum would overflow are
 * first scaled down by a power of two (overflowScale), so a constant series is never a shift, whatever its magnitude.
 * Every random draw comes from fixed seeds: the same series always gets the same p-value.
 */

/** The false-alarm rate per metric. */
const changePoint_CHANGE_POINT_ALPHA = 0.01;
/** A shift starts after at least this many runs and lasts at least this many: fewer is one run's noise. */
const MIN_SEGMENT = 3;
/**
 * The fewest runs the test is run on. The first run has no residual, so a shift in the last MIN_SEGMENT of n runs
 * reaches at best p = 2 / C(n - 1, 3) (those runs' residuals the largest, or the smallest): 0.012 at 12 runs, never
 * under alpha; 0.007 at 14, where the Monte Carlo p-value (its error about 0.003 with PERMUTATIONS) is mostly under.
 */
const MIN_RUNS = 14;
/** The largest AR(1) coefficient the test guards against. */
const AR_MAX = 0.7;
/** AR(1) coefficients the p-value is maximized over (those the series does not rule out). */
const AR_GRID = Array.from({ length: Math.round(AR_MAX / 0.05) + 1 }, (_, i) => (i * 5) / 100);
/** A coefficient is ruled out when the series' autocorrelation is in its lowest 10% (a one-sided 90% bound). */
const AR_BOUND_MISS = 0.1;
/** Simulated series per grid coefficient that calibrate arBound. */
const CALIBRATION_SERIES = 999;
/** Permutations per coefficient: p-values from 1/1000 up. */
const PERMUTATIONS = 999;
/** The permutations' seed (exported so a test can redo them); mixed with n and g, the calibrations'. */
const CHANGE_POINT_SEED = 45;
/** The first index whose value is within rounding of the largest (so a rounded copy of a series picks the same). */
function firstNearMax(values) {
    const largest = Math.max(...values);
    return values.findIndex((v) => v >= largest - 1e-9 * Math.abs(largest));
}
/** The score of a split before `t` in levelSplit, from the sum of the values before it and the total. */
function splitScore(before, total, t, n) {
    return Math.abs(before / t - (total - before) / (n - t)) * Math.sqrt((t * (n - t)) / n);
}
/**
 * The start that best splits `x` into two levels: the largest |mean(from start) - mean(before)| x sqrt(start (n -
 * start) / n), over starts with MIN_SEGMENT runs or more on either side (least squares for one mean shift). The
 * first start within rounding of the largest, so a rounded copy of the series picks the same.
 */
function levelSplit(x) {
    const n = x.length;
    let total = 0;
    for (let i = 0; i < n; i++)
        total += x[i];
    let largest = 0;
    for (let pass = 0; pass < 2; pass++) {
        let before = 0;
        for (let t = 1; t <= n - MIN_SEGMENT; t++) {
            before += x[t - 1];
            if (t < MIN_SEGMENT)
                continue;
            const score = splitScore(before, total, t, n);
            if (pass === 0)
                largest = Math.max(largest, score);
            else if (score >= largest - 1e-9 * largest)
                return t;
        }
    }
    return MIN_SEGMENT;
}
/**
 * Lag-1 autocorrelation of `x` less each side's mean around levelSplit: the AR coefficient with a shift kept out.
 * The deviations are divided by the largest first, so their squares neither overflow nor underflow.
 */
function splitAutocorrelation(x) {
    const n = x.length;
    const start = levelSplit(x);
    let early = 0;
    let late = 0;
    for (let i = 0; i < n; i++)
        i < start ? (early += x[i]) : (late += x[i]);
    const earlyMean = early / start;
    const lateMean = late / (n - start);
    let largest = 0;
    for (let i = 0; i < n; i++)
        largest = Math.max(largest, Math.abs(x[i] - (i < start ? earlyMean : lateMean)));
    if (largest === 0)
        return 0;
    let products = 0;
    let squares = 0;
    let previous = 0;
    for (let i = 0; i < n; i++) {
        const d = (x[i] - (i < start ? earlyMean : lateMean)) / largest;
        squares += d * d;
        if (i > 0 && i !== start)
            products += d * previous;
        previous = d;
    }
    return products / squares;
}
/** Standard normal draws from `random`, two per pair of uniforms (Box-Muller). Exported for its test. */
function gaussians(random) {
    let spare = Number.NaN;
    return () => {
        if (!Number.isNaN(spare)) {
            const drawn = spare;
            spare = Number.NaN;
            return drawn;
        }
        const radius = Math.sqrt(-2 * Math.log(1 - random()));
        const angle = 2 * Math.PI * random();
        spare = radius * Math.sin(angle);
        return radius * Math.cos(angle);
    };
}
const calibrations = new Map();
/**
 * The sorted splitAutocorrelation of CALIBRATION_SERIES stationary Gaussian AR(1) series of n runs with coefficient
 * AR_GRID[g], from a seed of their own (computed once per n and g). Exported for its test.
 */
function calibration(n, g) {
    const key = `${n}/${g}`;
    let values = calibrations.get(key);
    if (values)
        return values;
    const phi = AR_GRID[g];
    const gaussian = gaussians(seededRandom(CHANGE_POINT_SEED * 1_000_003 + n * 101 + g));
    const innovation = Math.sqrt(1 - phi * phi);
    const x = new Float64Array(n);
    values = new Float64Array(CALIBRATION_SERIES);
    for (let s = 0; s < CALIBRATION_SERIES; s++) {
        x[0] = gaussian();
        for (let i = 1; i < n; i++)
            x[i] = phi * x[i - 1] + innovation * gaussian();
        values[s] = splitAutocorrelation(x);
    }
    values.sort();
    calibrations.set(key, values);
    return values;
}
/** How many of the sorted `values` are <= x. */
function countAtMost(values, x) {
    let low = 0;
    let high = values.length;
    while (low < high) {
        const mid = (low + high) >> 1;
        if (values[mid] <= x)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}
/**
 * The index in AR_GRID of the largest coefficient the series does not rule out: one whose simulated series have an
 * autocorrelation (splitAutocorrelation) at most the observed one more than AR_BOUND_MISS of the time; 0 when every
 * other is ruled out. Scanned from the largest down, so only the coefficients above the bound are simulated.
 */
function arBound(x) {
    const observed = splitAutocorrelation(x);
    for (let g = AR_GRID.length - 1; g > 0; g--) {
        const values = calibration(x.length, g);
        if ((countAtMost(values, observed) + 1) / (values.length + 1) > AR_BOUND_MISS)
            return g;
    }
    return 0;
}
function whitenedStep(n, phi) {
    const starts = n - 2 * MIN_SEGMENT + 1;
    const mean = new Float64Array(starts);
    const inverseNorm = new Float64Array(starts);
    for (let k = 0; k < starts; k++) {
        const after = n - 1 - (MIN_SEGMENT + k);
        mean[k] = (1 + (1 - phi) * after) / (n - 1);
        inverseNorm[k] = 1 / Math.sqrt(1 + (1 - phi) ** 2 * after - (n - 1) * mean[k] ** 2);
    }
    return { phi, mean, inverseNorm };
}
/**
 * The largest standardized score, over the starts, of the residuals later[j] - phi earlier[j] (residual j belongs to
 * run j + 1) on the whitened step: 1 at the start's residual, 1 - phi after it. `total` is the residuals' sum; with
 * `scores`, each start's score is kept there.
 */
function stepScore(step, later, earlier, total, scores) {
    const { phi, mean, inverseNorm } = step;
    const last = mean.length - 1;
    let after = 0;
    for (let j = later.length - 1; j >= MIN_SEGMENT + last; j--)
        after += later[j] - phi * earlier[j];
    let largest = 0;
    for (let k = last; k >= 0; k--) {
        const j = MIN_SEGMENT + k - 1;
        const r = later[j] - phi * earlier[j];
        const score = Math.abs(r + (1 - phi) * after - mean[k] * total) * inverseNorm[k];
        if (scores)
            scores[k] = score;
        if (score > largest)
            largest = score;
        after += r;
    }
    return largest;
}
/**
 * The largest over `phis` of the permutation p-values of the largest step score, with the same permutations for
 * each (each p-value is exact at its own coefficient), and the start of the observed largest score at the first
 * coefficient. Sequential (Besag and Clifford 1991): once one coefficient's count of permutations at least as
 * extreme reaches ceil(alpha (B + 1)), p > alpha is certain and that count over the permutations so far is returned;
 * else (1 + the largest count) / (B + 1).
 */
function maximizedP(series, phis, alpha) {
    const n = series.length;
    const later = Float64Array.from(series.slice(1));
    const earlier = Float64Array.from(series.slice(0, n - 1));
    const steps = phis.map((phi) => whitenedStep(n, phi));
    const totals = phis.map((phi) => later.reduce((a, x, j) => a + x - phi * earlier[j], 0));
    const scores = new Float64Array(n - 2 * MIN_SEGMENT + 1);
    // Ties within rounding, relative to the residuals' magnitudes (a constant series: every permutation ties).
    const thresholds = steps.map((step, g) => stepScore(step, later, earlier, totals[g], g === 0 ? scores : undefined) -
        1e-9 * later.reduce((a, x, j) => a + Math.abs(x - step.phi * earlier[j]), 0));
    const start = MIN_SEGMENT + firstNearMax([...scores]);
    const enough = Math.ceil(alpha * (PERMUTATIONS + 1));
    const counts = phis.map(() => 0);
    const random = seededRandom(CHANGE_POINT_SEED);
    for (let b = 1; b <= PERMUTATIONS; b++) {
        for (let i = later.length - 1; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            const l = later[i];
            const e = earlier[i];
            later[i] = later[j];
            earlier[i] = earlier[j];
            later[j] = l;
            earlier[j] = e;
        }
        for (let g = 0; g < steps.length; g++)
            if (stepScore(steps[g], later, earlier, totals[g]) >= thresholds[g] && ++counts[g] >= enough)
                return { p: enough / b, start };
    }
    return { p: (Math.max(...counts) + 1) / (PERMUTATIONS + 1), start };
}
/**
 * 1 when no sum or product the test forms of the series can overflow (its largest magnitude times 4 n MIN_SEGMENT
 * is finite): every ordinary series, computed as it is. Else the power of two that brings the largest magnitude
 * under that bound. Scaling by a power of two is exact (but for values that become subnormal, far below the
 * tolerance) and the test is invariant under it: the same p-value, start and direction, and a constant series stays
 * constant, so every permutation ties with it and p = 1 (unscaled, a sum of values near 1e308 overflowed).
 */
function overflowScale(series) {
    const largest = series.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const safe = Number.MAX_VALUE / (4 * series.length * MIN_SEGMENT);
    return largest <= safe ? 1 : 2 ** -(Math.ceil(Math.log2(largest / safe)) + 1);
}
/**
 * The test for one shift in the series' level: its p-value (the largest over the AR coefficients up to arBound),
 * where the shift starts (the largest score's start at arBound) and its size (±Infinity only when the shift itself
 * is beyond the largest double). p-values above `alpha` are not refined: the coefficients' tests stop there. Null
 * when the series has fewer than MIN_RUNS values or a non-finite one.
 */
function shiftTest(values, alpha = changePoint_CHANGE_POINT_ALPHA) {
    const n = values.length;
    if (n < MIN_RUNS || values.some((x) => !Number.isFinite(x)))
        return null;
    const scale = overflowScale(values);
    const series = scale === 1 ? values : values.map((x) => x * scale);
    const bound = arBound(series);
    const { p: pValue, start } = maximizedP(series, AR_GRID.slice(0, bound + 1).reverse(), alpha);
    let before = 0;
    let after = 0;
    for (let i = 0; i < n; i++)
        i < start ? (before += series[i]) : (after += series[i]);
    const shift = after / (n - start) - before / start;
    return {
        direction: shift >= 0 ? 'up' : 'down',
        pValue,
        shift: shift / scale,
        start,
        runs: n,
        arBound: AR_GRID[bound],
    };
}
/** The change point when the test finds one at `alpha`, else null. */
function changePointOf(series, alpha = changePoint_CHANGE_POINT_ALPHA) {
    const found = shiftTest(series, alpha);
    return found && found.pValue <= alpha && found.shift !== 0 ? found : null;
}

;// CONCATENATED MODULE: ./src/render/trend.ts




const BLOCKS = '▁▂▃▄▅▆▇█';
/** Flaky query ids named in the comment at most; the rest are counted. */
const FLAKY_SHOWN = 20;
/** One character per value, scaled between the series' own lowest and highest (a flat series is mid-height). */
function sparkline(values) {
    const present = values.filter((v) => v !== null && Number.isFinite(v));
    const low = Math.min(...present);
    const high = Math.max(...present);
    return values
        .map((v) => {
        if (v === null || !Number.isFinite(v))
            return '·';
        if (high === low)
            return BLOCKS[3];
        return BLOCKS[Math.min(BLOCKS.length - 1, Math.floor(((v - low) / (high - low)) * BLOCKS.length))];
    })
        .join('');
}
function commitText(commit) {
    if (commit === null)
        return 'no commit';
    return /^[0-9a-f]{7,64}$/i.test(commit) ? `\`${commit.slice(0, 7)}\`` : escapeMarkdownText(commit, 20);
}
/** Where a change point starts: "at run 13 of 15", the run counted from the oldest. */
function runText(changePoint) {
    return `at run ${changePoint.start + 1} of ${changePoint.runs}`;
}
function shiftText(m, runs) {
    if (!m.changePoint)
        return '—';
    const { direction, pValue, start } = m.changePoint;
    const commit = runs[start]?.commit;
    const p = `p ${pValue < 0.0001 ? '' : '= '}${numberFormat_formatP(pValue, changePoint_CHANGE_POINT_ALPHA)}`;
    return `⚠️ main shifted ${direction} ${runText(m.changePoint)} (${commit ? `${commitText(commit)}; ${p}` : p})`;
}
/** The collapsed section's summary: the run count, and what a reviewer must see without opening it. */
function summaryText(trend) {
    const shifted = trend.metrics.filter((m) => m.changePoint);
    const parts = [`Main's history: the last ${numberFormat_plural(trend.runs.length, 'run', 'runs')} on the default branch`];
    for (const direction of ['down', 'up']) {
        const ids = shifted
            .filter((m) => m.changePoint.direction === direction)
            .map((m) => `${metricCode(m.id)} ${runText(m.changePoint)}`);
        if (ids.length > 0)
            parts.push(`⚠️ main shifted ${direction}: ${ids.join(', ')}`);
    }
    if (trend.flaky.size > 0)
        parts.push(`${numberFormat_plural(trend.flaky.size, 'query', 'queries')} flaky by history`);
    return parts.join(' · ');
}
/**
 * The trend section's Markdown lines (leading blank line included), collapsed under a summary that carries the
 * change-point marks and the flaky count; none for a history without runs.
 */
function trendMarkdownLines(trend, units = new Map()) {
    if (!trend || trend.runs.length === 0)
        return [];
    const newest = trend.runs[trend.runs.length - 1];
    const { minSegment, alpha, minRuns, arMax } = trend.test;
    const lines = [
        '',
        `<details><summary>${summaryText(trend)}</summary>`,
        '',
        `Oldest to newest (newest ${commitText(newest.commit)}, ${escapeMarkdownText(newest.time, 40)})${trend.otherGolden > 0 ? `; ${numberFormat_plural(trend.otherGolden, 'run', 'runs')} of another golden set left out` : ''}.`,
    ];
    if (trend.metrics.length > 0) {
        lines.push('', '| metric | main runs | oldest | newest | change point |', '| --- | --- | ---: | ---: | --- |');
        for (const m of trend.metrics) {
            const unit = units.get(m.id)?.unit;
            const first = m.values.find((v) => v !== null) ?? null;
            const last = [...m.values].reverse().find((v) => v !== null) ?? null;
            lines.push(`| ${metricCode(m.id)} | \`${sparkline(m.values)}\` | ${numberFormat_formatValue(first, unit)} | ${numberFormat_formatValue(last, unit)} | ${shiftText(m, trend.runs)} |`);
        }
        lines.push('', `_Change point: a permutation test for one shift in the metric's level, prewhitened for runs that follow each other (AR(1) coefficients up to ${arMax}), false-alarm rate at most ${alpha * 100}% per metric; a shift lasts ${minSegment} runs or more, and the test needs ${minRuns} runs or more._`);
    }
    lines.push(...flakyLines(trend), '', '</details>');
    return lines;
}
function flakyLines(trend) {
    if (trend.flaky.size === 0)
        return [];
    const ids = [...trend.flaky.keys()];
    const shown = ids.slice(0, FLAKY_SHOWN).map((id) => escapeMarkdownText(id, 80));
    const more = ids.length > FLAKY_SHOWN ? ` and ${ids.length - FLAKY_SHOWN} more` : '';
    return [
        '',
        `_Flaky by history: ${numberFormat_plural(ids.length, 'query', 'queries')} went between hit and miss on main, each in at least a quarter of the runs, and ${ids.length === 1 ? 'is' : 'are'} set aside: ${shown.join(', ')}${more}._`,
    ];
}
/** The trend as plain text lines for the terminal report (no Markdown). */
function trendTextLines(trend, units = new Map()) {
    if (!trend || trend.runs.length === 0)
        return [];
    const clean = (s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
    const lines = ['', `Main's history (last ${plural(trend.runs.length, 'run', 'runs')}, oldest to newest):`];
    for (const m of trend.metrics) {
        const last = [...m.values].reverse().find((v) => v !== null) ?? null;
        const commit = m.changePoint ? trend.runs[m.changePoint.start]?.commit : null;
        const shown = commit
            ? `${clean(/^[0-9a-f]{7,64}$/i.test(commit) ? commit.slice(0, 7) : commit.slice(0, 20))}, `
            : '';
        const cp = m.changePoint
            ? `  shifted ${m.changePoint.direction} ${runText(m.changePoint)} (${shown}p = ${formatP(m.changePoint.pValue, CHANGE_POINT_ALPHA)})`
            : '';
        lines.push(`  ${clean(m.id).padEnd(14)} ${sparkline(m.values)}  ${formatValue(last, units.get(m.id)?.unit)}${cp}`);
    }
    if (trend.flaky.size > 0) {
        const ids = [...trend.flaky.keys()];
        lines.push(`  flaky by history: ${ids.slice(0, FLAKY_SHOWN).map(clean).join(', ')}${ids.length > FLAKY_SHOWN ? ` and ${ids.length - FLAKY_SHOWN} more` : ''}`);
    }
    return lines;
}

;// CONCATENATED MODULE: ./src/render/reportParts.ts





/** Rows shown before the first `<details>` (docs/compare.md names this budget). */
const OPEN_GATE_ROWS = 8;
const OPEN_METRIC_ROWS = 8;
const OPEN_QUERY_ROWS = 10;
/** Metrics worth a reviewer's glance, in this order, when the runs have them (the action's `summary` too). */
const KEY_METRICS = [
    'hit@1',
    'hit@10',
    'mrr@10',
    'nDCG@10',
    'recall@10',
    'MAP',
    'citation_coverage',
    'attribution_hit_rate',
    'groundedness',
    'answer_precision',
    'refusal_correctness',
    'over_refusal_rate',
    'judge_correctness_mean',
    'latency_p95_ms',
    'error_rate',
];
/** "95%" for alpha 0.05: a level as the report prints it (the metric tables at 1 - alpha, a gate at its own). */
function intervalLevel(alpha) {
    return `${Number(((1 - alpha) * 100).toFixed(2))}%`;
}
function unitOf(metric, byId) {
    return byId.get(metric)?.unit ?? (metric in COUNT_METRICS ? 'count' : undefined);
}
/**
 * The report with every p-value and interval as the reports print them (`shownP`, `shownEnd`): the JSON report and
 * the action's outputs then agree with the marks and outcomes too, which were decided on the exact values before this.
 */
function withShownPValues(report) {
    // Below 0.0001 the exact p stays: the reports print `< 0.0001` from it, and 4 decimals would make it 0.0001.
    const shown = (p) => (p < 0.0001 ? p : shownP(p, report.alpha));
    const metric = (m) => ({
        ...m,
        ...(m.p_value !== null ? { p_value: shown(m.p_value) } : {}),
        ...(m.ci ? { ci: shownInterval(m.ci) } : {}),
    });
    const table = (ms) => Object.fromEntries(Object.entries(ms).map(([id, m]) => [id, metric(m)]));
    const byGroup = (groups) => Object.fromEntries(Object.entries(groups).map(([group, ms]) => [group, table(ms)]));
    return {
        ...report,
        metrics: table(report.metrics),
        breakdowns: Object.fromEntries(Object.entries(report.breakdowns).map(([key, gs]) => [key, byGroup(gs)])),
        gates: report.gates.map((g) => ({
            ...g,
            ...(typeof g.p_value === 'number' ? { p_value: shown(g.p_value) } : {}),
            ...(g.p_adjusted !== undefined ? { p_adjusted: shown(g.p_adjusted) } : {}),
            ...(g.ci ? { ci: shownInterval(g.ci) } : {}),
        })),
    };
}
/**
 * An interval end as every output prints it: an end within 0.00005 of 0 but not 0 is ±0.0001, on its own side.
 * Which side of 0 an end is on is the test's answer, and 4 decimals (the JSON report's) would make it 0.
 */
function shownEnd(x) {
    return x !== 0 && round4(x) === 0 ? Math.sign(x) * 0.0001 : x;
}
const shownInterval = (ci) => [shownEnd(ci[0]), shownEnd(ci[1])];
/** A `where` group as its pairs, `category=what` (`k=v, k=v` for more keys), the values as they are. */
function wherePairs(where) {
    return Object.entries(where)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
}
/**
 * " where category=what" after a gate's metric, '' for a gate without a group: how every output names a group.
 * `shown` is the output's own escaping of the pairs (the comment's Markdown escape, the terminal's plain text).
 */
function whereText(where, shown = (pairs) => pairs) {
    return where ? ` where ${shown(wherePairs(where))}` : '';
}
/** A gate's value as the reports name it: its delta, or its candidate value for a `min`/`max` gate. */
function gateValueText(g, unit) {
    return showsDelta(g) ? `${formatDelta(g.delta, unit)}${pairedShort(g, unit)}` : numberFormat_formatValue(g.candidate, unit);
}
/** " (paired −0.4000)" where the gate's test is of a paired change that is not the means' delta; else nothing. */
function pairedShort(g, unit) {
    return g.paired_delta === undefined ? '' : ` (paired ${formatDelta(g.paired_delta, unit)})`;
}
const showsDelta = (g) => g.delta !== null && g.min === undefined && g.max === undefined;
/**
 * The same, with what the gate itself used: a tested gate's interval (at its own level) and its one-sided p and
 * adjusted p; a relative threshold's relative change. A gate without a test shows no p.
 */
function gateChangeText(g, report, byId) {
    const unit = unitOf(g.metric, byId);
    return showsDelta(g) ? gateDeltaText(g, unit, report.alpha) : gateValueText(g, unit);
}
/** The delta and its relative change where the threshold is relative (`+187 (+22%)`), without the test. */
function gateDeltaShort(g, unit) {
    const delta = formatDelta(g.delta, unit);
    return g.delta === null ? delta : `${delta}${relativeChange(g)}${pairedShort(g, unit)}`;
}
/** The gate table's delta cell: the delta, its relative change where the threshold is relative, the gate's test. */
function gateDeltaText(g, unit, alpha) {
    const delta = formatDelta(g.delta, unit);
    if (g.delta === null)
        return delta;
    // Where the means count different queries, the interval and p are of the paired change: print it beside them.
    const paired = g.paired_delta !== undefined && g.n_paired !== undefined
        ? `paired change ${formatDelta(g.paired_delta, unit)} over ${numberFormat_plural(g.n_paired, 'query', 'queries')}, `
        : '';
    const test = g.ci && g.ci_level !== undefined
        ? ` (${paired}${intervalLevel(1 - g.ci_level)} CI ${intervalText(g.ci, unit)}, ${gatePText(g, alpha)})`
        : '';
    return `${delta}${relativeChange(g)}${test}`;
}
/** An interval as every table prints it; each end keeps its sign when it rounds to 0 (— for none). */
function intervalText(ci, unit) {
    return ci ? `[${formatDeltaKeepingSign(ci[0], unit)}, ${formatDeltaKeepingSign(ci[1], unit)}]` : '—';
}
/** " (+22%)" for a gate with a relative threshold; else nothing. */
function relativeChange(g) {
    if (g.max_drop_pct === undefined && g.max_increase_pct === undefined)
        return '';
    if (g.baseline === null || g.delta === null || g.baseline === 0)
        return '';
    const pct = (g.delta / Math.abs(g.baseline)) * 100;
    return ` (${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(Math.abs(pct) < 10 ? 1 : 0)}%)`;
}
/** The p of the gate's bounds, as gates.ts words it; '' for a gate without a test. */
function gatePText(g, alpha) {
    if (g.p_value === undefined || g.p_value === null || g.correction === undefined)
        return '';
    return gatePSentence(g.p_value, g.p_adjusted, g.correction, alpha, g.simultaneous_over);
}
/** The row's result as words: a `where` group below min_n says so, an inconclusive gate says why. */
function gateResultWords(g) {
    if (g.result === 'info')
        return 'below min_n, not enforced';
    if (g.trade?.traded)
        return 'pass (traded)';
    if (g.result === 'inconclusive')
        return `inconclusive${g.effect === 'fail' ? ' (fails)' : g.effect === 'warn' ? ' (warns)' : ''}`;
    return g.result.replace('_', ' ');
}
/**
 * Advice for an inconclusive tested gate: "finds 0.72 (80%)", with "> margin 0.1" when the margin is out of its
 * reach. Power decides nothing: a gate that passed or failed gets none.
 */
function detectableText(g, unit) {
    if (g.margin === undefined || g.result !== 'inconclusive')
        return '';
    if (g.min_detectable_drop === null || g.min_detectable_drop === undefined)
        return 'finds no drop (80%)';
    const over = g.min_detectable_drop > g.margin + 1e-12;
    return `finds ${numberFormat_formatValue(g.min_detectable_drop, unit)} (80%)${over ? ` > margin ${numberFormat_formatValue(g.margin, unit)}` : ''}`;
}
/**
 * One sentence for the verdict line when a tested gate cannot see a drop of its margin's size: what it detects
 * and how many queries would bring it to the margin (the largest need among such gates). Null when all can.
 */
function adviceSentence(report) {
    const short = report.gates.filter((g) => g.result === 'inconclusive' &&
        g.margin !== undefined &&
        (g.min_detectable_drop === null || (g.min_detectable_drop ?? 0) > g.margin + 1e-12));
    if (short.length === 0)
        return null;
    // One gate's figures, never one gate's margin beside another's queries: the gate furthest from its margin (the
    // most queries needed; none will do counts as most), the first in config order on a tie.
    const needed = (g) => (typeof g.queries_needed === 'number' ? g.queries_needed : Infinity);
    const furthest = short.reduce((a, b) => (needed(b) > needed(a) ? b : a));
    const margin = numberFormat_formatValue(furthest.margin);
    const mdd = furthest.min_detectable_drop;
    const sees = typeof mdd === 'number'
        ? `finds drops of ${numberFormat_formatValue(mdd)} or more 80% of the time, more than its margin ${margin}`
        : 'finds no drop 80% of the time';
    const who = short.length === 1
        ? `the ${furthest.metric} gate`
        : `${short.length} inconclusive gates cannot yet find their margin; the furthest, ${furthest.metric},`;
    const fix = typeof furthest.queries_needed === 'number'
        ? `about ${furthest.queries_needed.toLocaleString('en-US')} queries like these would find ${margin} 80% of the time`
        : 'more queries that differ less between runs would be needed';
    return `With ${numberFormat_plural(furthest.n_paired ?? 0, 'query', 'queries')}, ${who} ${sees}: ${fix}.`;
}
/** Gates that make the verdict fail, then those that warn, then inconclusive ones accepted, in config order. */
function gatesToName(report) {
    return [
        ...report.gates.filter((g) => g.effect === 'fail'),
        ...report.gates.filter((g) => g.effect === 'warn'),
        ...report.gates.filter((g) => g.effect === 'none' && g.result === 'inconclusive'),
    ];
}
function verdictWord(report) {
    const inconclusive = report.gates.some((g) => g.result === 'inconclusive');
    const warned = report.gates.some((g) => g.effect === 'warn' && g.result !== 'inconclusive');
    if (report.verdict === 'fail')
        return 'fail';
    if (report.verdict === 'warn')
        return inconclusive && !warned ? 'inconclusive' : 'pass with warnings';
    return inconclusive ? 'pass, inconclusive accepted' : 'pass';
}
/** "2 of 5 gates failed, 1 gate warned, 2 inconclusive", "all 5 gates passed", "no gates configured". */
function gateTally(report) {
    const named = gatesToName(report);
    const failed = named.filter((g) => g.effect === 'fail').length;
    const inconclusive = named.filter((g) => g.result === 'inconclusive' && g.effect !== 'fail').length;
    const warned = named.length - failed - inconclusive;
    return report.gates.length === 0
        ? 'no gates configured'
        : named.length === 0
            ? `${report.gates.length === 1 ? 'the gate' : `all ${report.gates.length} gates`} passed`
            : [
                failed ? `${failed} of ${numberFormat_plural(report.gates.length, 'gate', 'gates')} failed` : '',
                warned ? `${numberFormat_plural(warned, 'gate', 'gates')} warned` : '',
                inconclusive
                    ? `${failed ? inconclusive : `${inconclusive} of ${numberFormat_plural(report.gates.length, 'gate', 'gates')}`} inconclusive`
                    : '',
            ]
                .filter((x) => x !== '')
                .join(', ');
}
/** Gates shown open: all of them when few, else the ones that did not pass (the rest are in "All gates"). */
function openGates(report) {
    if (report.gates.length <= OPEN_GATE_ROWS)
        return report.gates;
    // A pass a trade bought stays in view: the reviewer is asked to accept a larger drop.
    return report.gates.filter((g) => g.result !== 'pass' || g.trade?.traded);
}
/** Key metrics with a value on either side: gated metrics first, then the usual ones, at most OPEN_METRIC_ROWS. */
function keyMetrics(report) {
    const has = (id) => report.metrics[id] !== undefined && (report.metrics[id].baseline !== null || report.metrics[id].candidate !== null);
    const gated = report.gates.filter((g) => !g.where).map((g) => g.metric);
    return [...new Set([...gated, ...KEY_METRICS])].filter(has).slice(0, OPEN_METRIC_ROWS);
}
/** Metrics whose two denominators differ: the one thing the key-metric columns do not show. */
function changedDenominators(report, ids) {
    return ids.map((id) => [id, report.metrics[id]]).filter(([, m]) => m.n !== m.n_baseline);
}
/**
 * How bad a per-query change is, lower first: 0 a regression (an expected hit the baseline had is lost), 1 the
 * first relevant rank slipped, 2 an answer-side change for the worse alone. Wins and draws are not regressions.
 */
function regressionTier(o) {
    if (o.kind === 'regression')
        return 0;
    if (o.kind === 'loss')
        return 1;
    if (o.answer_regression)
        return 2;
    return null;
}
const byId = (a, b) => (a.query_id < b.query_id ? -1 : a.query_id > b.query_id ? 1 : 0);
/** Null (no value) sorts after every number. */
function compareDeltas(a, b) {
    if (a === null || b === null)
        return (a === null ? 1 : 0) - (b === null ? 1 : 0);
    return a - b;
}
/**
 * The per-query outcomes as a partition of the compared queries, each counted once by its first relevant hit (a
 * flaky one set aside), then the answer regressions, which are among those queries and so not added to them.
 */
function perQueryTally(report) {
    const c = report.counts;
    const kinds = [
        numberFormat_plural(c.regression, 'expected hit lost', 'expected hits lost'),
        numberFormat_plural(c.loss, 'rank slipped', 'ranks slipped'),
        numberFormat_plural(c.win, 'win', 'wins'),
        numberFormat_plural(c.draw, 'draw', 'draws'),
        ...(report.flaky?.count ? [`${report.flaky.count.toLocaleString('en-US')} flaky (set aside)`] : []),
    ];
    const answers = c.answer_regression
        ? `; among them, ${numberFormat_plural(c.answer_regression, 'answer regression', 'answer regressions')}`
        : '';
    return `${numberFormat_plural(report.per_query.length, 'query', 'queries')} by the first relevant hit: ${kinds.join(' · ')}${answers}`;
}
/**
 * What puts a row among the regressions and in which order (regressionsBySeverity), in the words the reports head
 * them with: the first relevant hit decides the kind, `metric` (the report's per_query_metric) the order within one.
 */
function regressionOrder(metric) {
    return `lost hits, then lower first relevant ranks, then worse answers; each by Δ ${metric}, lowest first`;
}
/** "Regressions (10 of 31): lost hits, then …": the heading of the worst rows, saying their order. */
function regressionsHeading(shown, total, metric) {
    return `Regressions (${shown < total ? `${shown} of ${total}` : total}): ${regressionOrder(metric)}`;
}
/**
 * Regressions, losses and answer regressions by kind (a lost hit before a slipped rank before an answer alone),
 * then the metric delta, then the query id.
 */
function regressionsBySeverity(perQuery) {
    const tiered = perQuery.filter((o) => regressionTier(o) !== null);
    return tiered.sort((a, b) => regressionTier(a) - regressionTier(b) || compareDeltas(a.metric_delta, b.metric_delta) || byId(a, b));
}
/**
 * The wins' membership and order (winsByGain), as regressionOrder words the regressions': a win is decided by the
 * first relevant hit, so a win's Δ of `metric` can be negative (its rank rose while other relevant hits fell).
 */
function winOrder(metric) {
    return `hits found, then higher first relevant ranks; each by Δ ${metric}, highest first`;
}
/** Wins in winOrder: a first relevant hit found before a rank that improved; then the metric delta, largest first. */
function winsByGain(perQuery) {
    const tier = (o) => (o.baseline_rank === null ? 0 : 1);
    const negate = (d) => (d === null ? null : -d);
    return perQuery
        .filter((o) => o.kind === 'win')
        .sort((a, b) => tier(a) - tier(b) || compareDeltas(negate(a.metric_delta), negate(b.metric_delta)) || byId(a, b));
}
/** Answer changes, those for the worse first. */
function reportParts_answerChanges(perQuery) {
    return perQuery
        .filter((o) => o.answer_changes.length > 0)
        .sort((a, b) => Number(b.answer_regression) - Number(a.answer_regression) || byId(a, b));
}
/** "3 h", "2 days": the gap between two timestamps, or null when either does not parse. */
function ageBetween(earlier, later) {
    const gap = time_millisecondsBetween(earlier, later);
    if (gap === null)
        return null;
    const minutes = Math.round(Math.abs(gap) / 60_000);
    const text = minutes < 120
        ? numberFormat_plural(minutes, 'minute', 'minutes')
        : minutes < 24 * 60
            ? numberFormat_plural(Math.round(minutes / 60), 'hour', 'hours')
            : numberFormat_plural(Math.round(minutes / 1440), 'day', 'days');
    return { text, negative: gap < 0 };
}
/** A commit hash the report may link: hex only (the value comes from a run database). */
function commitOf(hash) {
    return hash !== null && /^[0-9a-f]{7,64}$/i.test(hash) ? hash.toLowerCase() : null;
}
/**
 * The report with each run's commit and where it came from (`commit_source`): the commit its database records
 * wins; a run that records none takes the workflow context's (`workflow_run`), else stays without one (null).
 */
function withWorkflowCommits(report, context) {
    const { baseline, candidate } = report;
    return {
        ...report,
        baseline: baseline && withCommit(baseline, context.baselineFrom?.headSha),
        candidate: withCommit(candidate, context.headSha),
    };
}
function withCommit(run, fromWorkflow) {
    if (run.commit_hash !== null && run.commit_hash.trim() !== '')
        return { ...run, commit_source: 'database' };
    if (fromWorkflow)
        return { ...run, commit_hash: fromWorkflow, commit_source: 'workflow_run' };
    return { ...run, commit_source: null };
}
/** Where a run's commit came from, in words, when not from its own database ("from the workflow run"). */
function commitSourceText(side, source) {
    if (source !== 'workflow_run')
        return '';
    return side === 'candidate' ? 'from the workflow run' : "from the artifact's workflow run";
}
/** The first relevant rank as a cell: a rank, `miss`, or `missing` when the run has no result for the query. */
function rankText(rank, missing) {
    return missing ? 'missing' : rank === null ? 'miss' : String(rank);
}
/** The verdict in one plain line, for a commit status (GitHub keeps 140 characters): the gates that failed first. */
function statusHeadline(report, defs) {
    const byId = new Map(defs.map((d) => [d.id, d]));
    const named = gatesToName(report);
    if (named.length === 0)
        return report.gates.length === 0
            ? 'pass: no gates configured'
            : `pass: ${plural(report.gates.length, 'gate', 'gates')} passed`;
    const failed = named.filter((g) => g.effect === 'fail').length;
    const inconclusive = named.filter((g) => g.result === 'inconclusive' && g.effect !== 'fail').length;
    const warned = named.length - failed - inconclusive;
    const tally = [
        failed ? `${failed} failed` : '',
        warned ? `${warned} warned` : '',
        inconclusive ? `${inconclusive} inconclusive` : '',
    ]
        .filter((x) => x !== '')
        .join(', ');
    const values = named.map((g) => `${g.metric} ${gateValueText(g, unitOf(g.metric, byId))}`);
    return `${verdictWord(report)}: ${tally} of ${plural(report.gates.length, 'gate', 'gates')} (${values.join(', ')})`;
}
const CHUNK_MATCH_WORDS = {
    exact: 'exact',
    fallback_doc_span: 'by document and span',
    fallback_doc: "by the expected chunk's document",
    fallback_expected_doc: 'by expected_doc_ids (chunk in no chunks table)',
};
/** How many queries each match mode scored, loosest last: "2 exact, 3 by document and span". */
function chunkMatchSummary(report) {
    const counts = report.chunk_match_queries;
    if (!counts)
        return null;
    return Object.keys(CHUNK_MATCH_WORDS)
        .filter((m) => counts[m] > 0)
        .map((m) => `${counts[m].toLocaleString('en-US')} ${CHUNK_MATCH_WORDS[m]}`)
        .join(', ');
}
/** Each run whose stored aggregate was computed on another golden set than the one compared with, and that set's. */
function otherRecordedGoldenSets(report) {
    const sides = [
        ['baseline', report.baseline],
        ['candidate', report.candidate],
    ];
    return sides.flatMap(([side, run]) => {
        const recorded = run?.recorded_golden_fingerprint;
        return recorded && recorded !== report.golden.fingerprint ? [{ side, recorded }] : [];
    });
}
/** How much lower the candidate's judged@10 may be than the baseline's before the report says so (docs/gates.md). */
const UNJUDGED_GAP = 0.05;
/**
 * With TREC-style judgments, a candidate that surfaces documents nobody judged loses P, nDCG and MAP although nothing
 * may be worse: when its judged@10 is lower than the baseline's by more than UNJUDGED_GAP, one sentence says so.
 */
function unjudgedNote(report) {
    const m = report.metrics['judged@10'];
    if (!m || m.baseline === null || m.candidate === null || m.baseline - m.candidate <= UNJUDGED_GAP + 1e-9)
        return null;
    // judged@10 divides by 10 whatever came back: a place with no hit counts as unjudged too, and is said so.
    const places = Math.round((1 - m.candidate) * 10 * m.n);
    return `In the candidate's top 10, ${places.toLocaleString('en-US')} places hold a document nobody judged or none (judged@10 ${numberFormat_formatValue(m.candidate)} against the baseline's ${numberFormat_formatValue(m.baseline)}): P, nDCG and MAP may understate it.`;
}
/**
 * The slice the verdict line names when the gates hold per slice: a failing slice first, else an inconclusive or
 * warning one, else the tested slice with the strongest sign of a drop (the smallest one-sided p); with how many
 * slices share its state. Null when no slice was tested.
 */
function sliceToName(report) {
    const byP = (a, b) => (a.p_value ?? 1) - (b.p_value ?? 1);
    const failing = report.gates.filter((g) => g.slice && g.effect === 'fail').sort(byP);
    if (failing.length > 0)
        return { gate: failing[0], state: 'failing', others: failing.length - 1 };
    const tested = report.gates.filter((g) => g.slice && g.p_value !== undefined && g.p_value !== null);
    if (tested.length === 0)
        return null;
    const open = tested.filter((g) => g.effect !== 'none' || g.result === 'inconclusive').sort(byP);
    return { gate: (open.length > 0 ? open : [...tested].sort(byP))[0], state: 'worst', others: 0 };
}
/**
 * "traded nDCG@10 −0.0370 for 47% lower latency: within the trade's margin 0.0500", for the verdict line: the first
 * gate a trade passed (and how many more).
 */
function tradeVerdictText(report, byId, code) {
    const traded = tradedGates(report.gates);
    if (traded.length === 0)
        return null;
    const g = traded[0];
    const unit = unitOf(g.metric, byId);
    const more = traded.length > 1 ? ` (and ${traded.length - 1} more traded)` : '';
    return `traded ${code(g.metric)} ${formatDelta(g.paired_delta ?? g.delta, unit)} for ${gainText(g.trade)}: within the trade's margin ${numberFormat_formatValue(g.trade.margin, unit)}${more}`;
}
/** "traded for 49% lower latency, a fall of 25% or more shown (600 queries; one-sided p ...)": a traded gate's line. */
function tradedText(g, alpha) {
    return `traded for ${gainWords(g.trade, familyOf(g), alpha)}`;
}
/** "; not traded: ..." for a gate whose trade did not pass it (and was needed), else "". */
function untradedClause(g, alpha, unit) {
    if (!g.trade || g.trade.traded || g.result === 'pass')
        return '';
    return `; ${untradedText(g.trade, familyOf(g), alpha, unit)}`;
}
const familyOf = (g) => ({
    correction: g.correction ?? 'none',
    simultaneousOver: g.simultaneous_over ?? 1,
});
/** "failing slice category=multi_hop: hit@5 −0.5600, 70 queries" (and "1 more failing"), as the verdict line says it. */
function sliceVerdictText(report, byId, code) {
    const named = sliceToName(report);
    if (named === null)
        return null;
    const { gate: g, state, others } = named;
    const queries = g.slice_queries === undefined ? '' : `, ${numberFormat_plural(g.slice_queries, 'query', 'queries')}`;
    const more = others > 0 ? ` (and ${others} more failing)` : '';
    return `${state} slice ${code(wherePairs(g.where ?? {}))}: ${code(g.metric)} ${formatDelta(g.delta, unitOf(g.metric, byId))}${queries}${more}`;
}

;// CONCATENATED MODULE: ./src/render/reportWarnings.ts


/** "12 days" when the baseline run is older than the action's `baseline-max-age`, else null. */
function staleAge(createdAt, context) {
    const limit = context.staleAfter;
    if (!limit || limit.maxAgeDays <= 0)
        return null;
    const age = ageBetween(createdAt, limit.now);
    if (age === null || age.negative)
        return null;
    return time_millisecondsBetween(createdAt, limit.now) > limit.maxAgeDays * 86_400_000 ? age.text : null;
}
/** The report's warnings, in the order the comment lists them. */
function reportWarnings(report, context = {}) {
    const { golden } = report;
    const out = [...runWarnings(report, context), ...(context.runnerMistakes ?? [])];
    if (golden.removed.length)
        out.push({
            kind: 'missing_results',
            count: golden.removed.length,
            ...(report.options.mean_over === 'trec' ? { leftOut: true } : {}),
        });
    if (golden.added.length)
        out.push({ kind: 'added_results', count: golden.added.length });
    for (const side of ['baseline', 'candidate']) {
        const unknown = golden.unknown_query_ids[side].length;
        if (unknown)
            out.push({ kind: 'unknown_results', side, count: unknown });
        const repeated = golden.duplicate_query_ids[side].length;
        if (repeated)
            out.push({ kind: 'duplicate_results', side, count: repeated });
        const capped = golden.capped_query_ids?.[side].length ?? 0;
        if (capped)
            out.push({ kind: 'capped_results', side, count: capped });
    }
    for (const { side, recorded } of otherRecordedGoldenSets(report))
        out.push({ kind: 'other_golden_set', side, recorded, fingerprint: golden.fingerprint });
    if (!report.judge_comparable)
        out.push({ kind: 'judge_differs' });
    if (golden.pending)
        out.push({ kind: 'pending', count: golden.pending });
    return out;
}
/** Which runs were compared: a stale, distant, swapped or repeated baseline, a candidate of another commit. */
function runWarnings(report, context) {
    const { baseline: b, candidate: c } = report;
    const out = [];
    if (context.sameRun)
        out.push({ kind: 'same_run', runId: c.run_id, why: context.sameRun });
    const stale = b === null ? null : staleAge(b.created_at, context);
    if (stale)
        out.push({ kind: 'stale_baseline', age: stale, maxAgeDays: context.staleAfter.maxAgeDays });
    const from = context.baselineFrom;
    if (from && !from.baseCommitRun)
        out.push({ kind: 'baseline_behind', commitsBehind: from.commitsBehind });
    const age = b === null ? null : ageBetween(b.created_at, c.created_at);
    if (age?.negative)
        out.push({ kind: 'swapped_runs', age: age.text });
    const head = context.headSha ? commitOf(context.headSha) : null;
    const candidateSha = commitOf(c.commit_hash);
    if (head && candidateSha && !head.startsWith(candidateSha) && !candidateSha.startsWith(head))
        out.push({ kind: 'candidate_commit', candidate: candidateSha, head });
    return out;
}
/** More than half of the run's results show the mistake. */
const inMostResults = (m) => m.queries * 2 > m.results;
/**
 * The runs most of whose results have hits that can match nothing in the golden set: their scores are mostly a
 * runner's mistake, so the verdict line says so itself (warnings.ts, verdictCaveatText), not only a warning below.
 */
function mostlyUnmatchable(context) {
    return (context.runnerMistakes ?? []).filter((m) => m.check === 'unmatchable-hit' && inMostResults(m));
}
/**
 * The runner mistakes as the JSON report's `runner_warnings` (docs/compare.md, "The JSON report"): each with its side,
 * run, check and field (as `evalverdict validate` names them), the key meant, its count of the run's results, and
 * whether that is more than half of them (`most_results`: with `unmatchable-hit`, what the verdict line names).
 */
function runnerWarningsJson(mistakes) {
    return mistakes.map((m) => ({
        side: m.side,
        run: m.run,
        check: m.check,
        field: m.field,
        meant: m.meant,
        queries: m.queries,
        results: m.results,
        first_query: m.firstQuery,
        most_results: inMostResults(m),
    }));
}

;// CONCATENATED MODULE: ./src/render/calibrationReport.ts


const f4 = (x) => x.toFixed(4);
const orNone = (x, digits = 4) => (x === null ? 'none' : x.toFixed(digits));
function commitsText(c) {
    const known = c.commits.filter((x) => x !== null);
    if (known.length === 0)
        return 'no recorded commit';
    // Commits and times come from the run databases: shown escaped, on one line.
    if (c.commits.length === 1)
        return `commit ${oneLine(known[0].slice(0, 12))}`;
    return `commits ${c.commits.map((x) => (x === null ? '(none)' : oneLine(x.slice(0, 12)))).join(', ')}`;
}
function levelText(c) {
    const k = c.metrics.length;
    return c.correction === 'none' || k === 1
        ? `α ${c.alpha}`
        : `α ${c.alpha}; ${c.correction} over ${k} gates, each at α/${k}`;
}
function renderCalibrationText(c, cutoffs = {}) {
    const width = Math.max(6, ...c.metrics.map((m) => m.metric.length));
    const header = `${'metric'.padEnd(width)}  queries  mean    sd(mean)          sd(diff)          changed  detects  margin`;
    const row = (m) => `${m.metric.padEnd(width)}  ${String(m.n).padStart(7)}  ${f4(meanOfMeans(m))}  ${`${f4(m.sdMean)} ±${f4(m.sdMeanError)}`.padEnd(16)}  ${`${f4(m.sdDiff)} ±${f4(m.sdDiffError)}`.padEnd(16)}  ${f4(m.changed)}   ${orNone(m.detects).padEnd(7)}  ${orNone(m.margin, 2)}`;
    return `${[
        `${c.runs.length} runs of ${commitsText(c)}, the newest created ${oneLine(c.measured)}`,
        '',
        header,
        ...c.metrics.map(row),
        '',
        "sd(mean): SD of the run mean across runs; sd(diff): SD of a query's difference between two runs (± one standard error)",
        'changed: share of queries that differ between two runs',
        `detects: the smallest drop a gate's one-sided test finds with ${Math.round(c.power * 100)}% power at this noise (${levelText(c)})`,
        'margin: the drop detectable when a comparison is as noisy as 1 in 40 are, up to 0.01: set it, and honest comparisons pass',
        '',
        'Suggested gate config (.github/evalverdict.yml; `evalverdict calibrate ... --format yaml` prints it alone):',
        '',
        renderCalibrationYaml(c, cutoffs),
    ].join('\n')}`;
}
const meanOfMeans = (m) => m.means.reduce((a, b) => a + b, 0) / m.means.length;
/** The suggested gate config: one tested gate per metric, and the noise it was measured at (src/gate/noise.ts). */
function renderCalibrationYaml(c, cutoffs = {}) {
    const commit = c.commits.length === 1 && c.commits[0] !== null ? c.commits[0] : null;
    const lines = [
        `# Suggested by evalverdict calibrate from ${c.runs.length} runs of ${commitsText(c)} (docs/gates.md, "Noise floor").`,
        `# Each gate fails on a significant drop and passes when it can see a drop of its margin.`,
        `alpha: ${c.alpha}`,
        `correction: ${c.correction}`,
        'on_inconclusive: warn',
        ...(cutoffs.ks ? [`k: [${cutoffs.ks.join(', ')}]`] : []),
        ...(cutoffs.mrrCutoff !== undefined ? [`mrr_cutoff: ${cutoffs.mrrCutoff}`] : []),
        'gates:',
    ];
    for (const m of c.metrics) {
        lines.push(`  - metric: ${m.metric}`, '    max_drop: 0', '    significant_only: true');
        if (m.margin !== null)
            lines.push(`    margin: ${m.margin}`);
        else
            lines.push(`    # no margin: no drop is detectable with ${m.n} queries at this noise (the gate is inconclusive)`);
    }
    lines.push('noise:', `  measured: ${JSON.stringify(c.measured)}`, `  runs: ${c.runs.length}`);
    if (commit !== null)
        lines.push(`  commit: ${JSON.stringify(commit)}`);
    lines.push('  metrics:');
    for (const m of c.metrics)
        lines.push(`    ${m.metric}: { sd_diff: ${f4(m.sdDiff)}, sd_mean: ${f4(m.sdMean)}, changed: ${f4(m.changed)}, detects: ${m.detects === null ? 'null' : f4(m.detects)} }`);
    return `${lines.join('\n')}\n`;
}
const calibrationReport_round4 = (x) => Math.round(x * 10_000) / 10_000;
/** The JSON of `--format json` and `--json FILE` (numbers to 4 decimals). */
function calibrationJson(c, cutoffs = {}) {
    return {
        runs: c.runs,
        commits: c.commits,
        measured: c.measured,
        alpha: c.alpha,
        power: c.power,
        correction: c.correction,
        metrics: Object.fromEntries(c.metrics.map((m) => [
            m.metric,
            {
                n: m.n,
                means: m.means.map(calibrationReport_round4),
                sd_mean: calibrationReport_round4(m.sdMean),
                sd_mean_error: calibrationReport_round4(m.sdMeanError),
                sd_diff: calibrationReport_round4(m.sdDiff),
                sd_diff_error: calibrationReport_round4(m.sdDiffError),
                changed: calibrationReport_round4(m.changed),
                changed_error: calibrationReport_round4(m.changedError),
                change_size: calibrationReport_round4(m.size),
                level: calibrationReport_round4(m.level),
                detects: m.detects === null ? null : calibrationReport_round4(m.detects),
                margin: m.margin,
            },
        ])),
        config: renderCalibrationYaml(c, cutoffs),
    };
}
/**
 * The report's one line on the noise floor its config carries, e.g. `Noise floor (evalverdict calibrate, 5 runs of
 * 0123456789ab, 2026-11-28T04:00:00Z): hit@5 sd(diff) 0.2828, detects 0.0412; ...`. The config is input: `id`
 * and `text` make its strings safe for the format (plain text: as given).
 */
function noiseFloorLine(noise, id = (x) => x, text = (x) => x) {
    const metrics = Object.entries(noise.metrics).map(([metric, m]) => `${id(metric)} sd(diff) ${f4(m.sd_diff)}, detects ${m.detects === null ? 'none' : f4(m.detects)}`);
    const shown = metrics.slice(0, 8).join('; ') + (metrics.length > 8 ? `; and ${metrics.length - 8} more` : '');
    const of = noise.commit === null ? '' : ` of ${text(noise.commit.slice(0, 12))}`;
    return `Noise floor (evalverdict calibrate, ${noise.runs} runs${of}, ${text(noise.measured.slice(0, 40))}): ${shown}`;
}
/** The line in Markdown: metric ids as code when they are plain ids, else escaped text. */
function noiseFloorMarkdown(noise) {
    return noiseFloorLine(noise, metricCode, (value) => escapeMarkdownText(value));
}

;// CONCATENATED MODULE: ./src/render/repeatsText.ts

/** Flaky queries shown in the comment (the JSON lists more); sorted by query id. */
const FLAKY_ROWS_SHOWN = 20;
const queries = (n) => `${n.toLocaleString('en-US')} flaky ${n === 1 ? 'query' : 'queries'}`;
/** "10 flaky queries set aside", for the verdict line; null without flaky queries. */
function flakySetAsideText(report) {
    const n = report.flaky?.count ?? 0;
    return n === 0 ? null : `${queries(n)} set aside`;
}
/** "baseline 3 runs (b1, b2, b3), candidate 3 runs (c1, c2, c3)": raw ids, for the caller to escape. */
function repeatsText(report, maxIds = 5) {
    const r = report.repeats;
    if (!r || (r.baseline.runs === 1 && r.candidate.runs === 1))
        return null; // flaky by history alone
    const side = (name, s) => `${name} ${s.runs} ${s.runs === 1 ? 'run' : 'runs'} (${s.run_ids.slice(0, maxIds).join(', ')}${s.run_ids.length > maxIds ? ', …' : ''})`;
    return `${side('baseline', r.baseline)}, ${side('candidate', r.candidate)}`;
}
const MEANS = "per query, each metric is the mean over its side's runs; the paired test pairs those means";
/** "the baseline's runs differ in embedding_model": repeats of different systems; null when none do. */
function repeatsDifferText(report) {
    const r = report.repeats;
    if (!r)
        return null;
    const parts = ['baseline', 'candidate']
        .filter((side) => r[side].differences?.length)
        .map((side) => `the ${side}'s runs differ in ${r[side].differences.slice(0, 10).join(', ')}`);
    return parts.length === 0 ? null : `${parts.join('; ')}: repeats should be runs of one system`;
}
/** The comment's line under the runs compared. */
function repeatsMarkdownLines(report) {
    const text = repeatsText(report);
    if (text === null)
        return [];
    const differ = repeatsDifferText(report);
    return [
        '',
        `Repeats: ${escapeMarkdownText(text, 400)}: ${MEANS}.${differ ? ` ⚠️ ${escapeMarkdownText(differ, 400)}.` : ''}`,
    ];
}
/** The comment's flaky list, collapsed: at most FLAKY_ROWS_SHOWN rows, each cell escaped and capped. */
function flakyMarkdownLines(report) {
    const flaky = report.flaky;
    if (!flaky || flaky.count === 0)
        return [];
    const shown = flaky.queries.slice(0, FLAKY_ROWS_SHOWN);
    const more = flaky.count > shown.length ? ` (the first ${shown.length} by query id)` : '';
    return [
        '',
        `<details><summary>Flaky queries (${flaky.count.toLocaleString('en-US')})${more}: unstable in the baseline's runs or main's history, set aside, in no win, loss or regression count</summary>`,
        '',
        '| query | why | baseline runs | candidate runs |',
        '| --- | --- | --- | --- |',
        ...shown.map((q) => `| ${escapeMarkdownCell(q.query_id, 40)} | ${escapeMarkdownCell(q.reasons.join('; '), 160)} | ${escapeMarkdownCell(q.baseline.join(' · '), 120)} | ${escapeMarkdownCell(q.candidate.join(' · '), 120)} |`),
        '',
        `_Means and paired tests keep them with their per-query means; the JSON report lists them as \`flaky\`. A query only the candidate's runs disagree on is not flaky: it is a win, loss or draw by its hit rate._`,
        '',
        '</details>',
    ];
}
/** The terminal's line of each side's runs. */
function repeatsTextLines(report, plain) {
    const text = repeatsText(report);
    if (text === null)
        return [];
    const differ = repeatsDifferText(report);
    return [`repeats   ${plain(text, 400)}`, ...(differ ? [`warning: ${plain(differ, 400)}`] : [])];
}
/** The terminal's first flaky queries, each with its runs' outcomes. */
function flakyTextLines(report, plain) {
    const flaky = report.flaky;
    if (!flaky || flaky.count === 0)
        return [];
    const lines = ['', `${queries(flaky.count)} (unstable on the baseline side), set aside (in no count):`];
    for (const q of flaky.queries.slice(0, 10))
        lines.push(`  ${plain(q.query_id, 30)}  ${plain(q.baseline.join(' · '), 60)} → ${plain(q.candidate.join(' · '), 60)}`);
    if (flaky.count > 10)
        lines.push(`  and ${flaky.count - 10} more in --json FILE`);
    return lines;
}

;// CONCATENATED MODULE: ./src/render/warningText.ts
/**
 * Warnings worded for the terminal and the action's annotations (src/warnings.ts holds them as data). The report's
 * own have one wording for every output: the comment passes its Markdown style to reportWarningText.
 */






/**
 * Warnings as the entries print them: the first `limit` as they are, then one line for the rest. A golden set
 * with a different unknown key in each of 100,000 queries would otherwise print 100,000 lines (and the action would
 * raise as many annotations, of which GitHub shows ten). The unknown-key warnings of a golden file read in two
 * halves are merged into one per key first, as one thread gives them.
 */
function summariseWarnings(warnings, limit = 10) {
    // A warning is one line: ids and keys quoted in it show their control characters escaped.
    const merged = mergeWarnings(warnings).map((w) => oneLine(warningText(w)));
    if (merged.length <= limit + 1)
        return merged;
    return [
        ...merged.slice(0, limit),
        `... and ${(merged.length - limit).toLocaleString('en-US')} more warnings like these`,
    ];
}
/** One warning as a line of plain text. */
function warningText(w) {
    if (w.kind === 'note')
        return w.text;
    if (w.kind === 'unknown_key')
        return unknownKeyText(w);
    return reportWarningText(w);
}
const inQueries = (n) => `in ${n.toLocaleString('en-US')} ${n === 1 ? 'query' : 'queries'}`;
function unknownKeyText(w) {
    const at = `${w.source}:${w.line}`;
    if (w.map === null)
        return `${at}: unknown key \`${w.key}\` ${inQueries(w.count)} (ignored)${suggest(w.key, w.known)}`;
    return `${at}: \`${w.map}\`: unknown key \`${w.key}\` ${inQueries(w.count)} (ignored; its keys are ${w.known.join(', ')})${suggest(w.key, w.known)}`;
}
const PLAIN = { code: (text) => text, commit: (sha) => sha.slice(0, 12), input: (text) => text };
/**
 * A report warning in words, as every output says it: plain by default (the text report, stderr, annotations); the
 * comment gives its own `style` and makes a sentence of it (markdown.ts, markdownWarning).
 */
function reportWarningText(w, style = PLAIN) {
    switch (w.kind) {
        case 'stale_baseline':
            return `the baseline run is ${w.age} old, past ${style.code('baseline-max-age')} (${numberFormat_plural(w.maxAgeDays, 'day', 'days')})`;
        case 'baseline_behind':
            return `the baseline is not the base commit's own run but one ${numberFormat_plural(w.commitsBehind, 'commit', 'commits')} behind it: changes made in between count as this pull request's`;
        case 'swapped_runs':
            return `the baseline run was created ${w.age} after the candidate: are the two the wrong way round?`;
        case 'candidate_commit':
            return `the candidate run was made at ${style.commit(w.candidate)}, not at the commit this workflow evaluated (${style.commit(w.head)})`;
        case 'missing_results':
            return `${numberFormat_plural(w.count, 'query has', 'queries have')} no result in the candidate (${w.leftOut ? `left out of its means: ${style.code('--mean-over trec')}` : 'counted as misses'})`;
        case 'added_results':
            return `${numberFormat_plural(w.count, 'query has', 'queries have')} a result only in the candidate`;
        case 'unknown_results':
            return `the ${w.side} has results for ${numberFormat_plural(w.count, 'query', 'queries')} not in the golden set (not scored)`;
        case 'duplicate_results':
            return `the ${w.side} has more than one result for ${numberFormat_plural(w.count, 'query', 'queries')} (the last one read is scored)`;
        case 'capped_results':
            return `the ${w.side} has ${numberFormat_plural(w.count, 'query', 'queries')} with more than ${score_CAPS_TEXT}: only the first are scored`;
        case 'other_golden_set':
            return `the ${w.side} run's stored aggregate was computed on another golden set (${style.code(w.recorded.slice(0, 19))}): both runs are scored here on ${style.code(w.fingerprint.slice(0, 19))}`;
        case 'judge_differs':
            return 'judge model or prompt differs: judge scores are shown, not gated';
        case 'pending':
            return `${numberFormat_plural(w.count, 'query is', 'queries are')} pending (not gated)`;
        case 'same_run':
            return `the baseline and the candidate are the same run (${style.input(w.runId)}: ${w.why}): every difference is 0, and the gates pass by construction`;
        case 'runner_mistake':
            return runnerMistakeText(w, style);
    }
}
/** A field of plain key characters, shown as code; any other is text from the inputs, escaped as such. */
const PLAIN_FIELD = /^[\w.[\]-]+$/;
/** A runner's mistake with its count of the run's results (RunnerMistakeWarning). */
function runnerMistakeText(w, style) {
    const where = `the ${w.side} run ${style.input(w.run)} has`;
    const count = `in ${w.queries.toLocaleString('en-US')} of its ${numberFormat_plural(w.results, 'result', 'results')}`;
    if (w.check === 'unmatchable-hit')
        return `${where} hits with no ${style.code('chunk_id')}, ${style.code('doc_id')} or ${style.code('doc_path')} ${count}: they can match nothing in the golden set`;
    const field = PLAIN_FIELD.test(w.field) ? style.code(w.field) : style.input(w.field);
    return `${where} an unknown key ${field} ${count} (ignored${w.meant === null ? '' : `; did you mean ${style.code(w.meant)}?`})`;
}
/**
 * What the verdict line adds when most results of a run have hits that can match nothing (mostlyUnmatchable): one
 * clause per such run, or null. The warning below it names the same mistake with its field.
 */
function verdictCaveatText(context, style = PLAIN) {
    const runs = mostlyUnmatchable(context);
    if (runs.length === 0)
        return null;
    return runs
        .map((m) => `most results of the ${m.side} run ${style.input(m.run)} (${m.queries.toLocaleString('en-US')} of ${m.results.toLocaleString('en-US')}) have hits that can match nothing in the golden set`)
        .join('; ');
}

;// CONCATENATED MODULE: ./src/render/markdown.ts










/** GitHub rejects comment bodies over 65,536 characters; keep a margin for the hidden marker the action adds. */
const GITHUB_COMMENT_LIMIT = 65_536 - 1_536;
/** The alert per verdict word: an inconclusive gate never gets the green TIP, even when accepted. */
const ALERT = {
    pass: 'TIP',
    'pass, inconclusive accepted': 'NOTE',
    'pass with warnings': 'WARNING',
    inconclusive: 'WARNING',
    fail: 'CAUTION',
};
const RESULT_TEXT = {
    pass: '✅ pass',
    fail: '❌ fail',
    warn: '⚠️ warn',
    inconclusive: '🟨 inconclusive',
    info: 'ℹ️ below min_n',
    no_data: '❔ no data',
    not_comparable: '➖ not comparable',
};
/** A gate's result cell: a pass a trade bought says so. */
const resultText = (g) => (g.trade?.traded ? '✅ pass (traded)' : RESULT_TEXT[g.result]);
function table(header, align) {
    return [`| ${header.join(' | ')} |`, `| ${align.join(' | ')} |`];
}
function mark(def, m) {
    // Every significant change is marked, one that rounds to ±0.0000 too: the mark follows the test, not the print.
    // The test is of the paired change, whose interval excludes 0 when significant; the means' delta can point the
    // other way where the two sides count different queries (--mean-over trec).
    const change = m.ci ? (m.ci[0] > 0 ? 1 : m.ci[1] < 0 ? -1 : 0) : (m.delta ?? 0);
    if (!m.significant || !def || def.direction === 'neutral' || change === 0)
        return '';
    const better = def.direction === 'higher' ? change > 0 : change < 0;
    return better ? ' ▲' : ' ▼';
}
function gateName(g) {
    const where = whereText(g.where, (pairs) => escapeMarkdownText(pairs, 60));
    return `${metricCode(g.metric)}${where}${g.level === 'warn' ? ' (warn)' : ''}`;
}
/** One line of the alert per gate that failed or warned: its value or delta with the test, and what was allowed. */
function alertGateLine(g, report, byId) {
    const value = gateChangeText(g, report, byId);
    if (g.trade?.traded)
        return `> - ⚖️ ${gateName(g).replace(/ \(warn\)$/, '')} ${value}; allowed: ${escapeMarkdownText(g.threshold, 120)} — ${escapeMarkdownText(tradedText(g, report.alpha), 240)}`;
    const icon = g.result === 'inconclusive' ? '🟨' : g.effect === 'fail' ? '❌' : '⚠️';
    // A gate that failed for want of data says why (no baseline, a zero denominator, an empty group); an
    // inconclusive one what it can detect; one with a trade what the trade lacked.
    const unit = unitOf(g.metric, byId);
    const result = g.result === 'fail' || g.result === 'warn'
        ? ''
        : g.result === 'inconclusive'
            ? ` — inconclusive, ${escapeMarkdownText(detectableText(g, unit), 80)}`
            : ` — ${escapeMarkdownText(g.note.split(';')[0], 160)}`;
    const untraded = escapeMarkdownText(untradedClause(g, report.alpha, unit), 240);
    return `> - ${icon} ${gateName(g).replace(/ \(warn\)$/, '')} ${value}; allowed: ${escapeMarkdownText(g.threshold, 120)}${result}${untraded}`;
}
function alertLines(report, byId, context) {
    // The gates to look at: those that failed, warned or were inconclusive, then those a trade passed.
    const named = [...gatesToName(report), ...tradedGates(report.gates)];
    const tally = gateTally(report);
    const shown = named.slice(0, 5);
    const word = verdictWord(report);
    const advice = adviceSentence(report);
    const flaky = flakySetAsideText(report);
    const caveat = verdictCaveatText(context, markdownStyle(context));
    const slice = sliceVerdictText(report, byId, (x) => escapeMarkdownText(x, 60));
    const traded = tradeVerdictText(report, byId, (x) => escapeMarkdownText(x, 60));
    return [
        `> [!${ALERT[word]}]`,
        `> **EvalVerdict: ${word}** — ${tally}${slice ? ` · ${slice}` : ''}${traded ? ` · ${traded}` : ''}${flaky ? ` · ${flaky}` : ''}${caveat ? ` · ⚠️ ${caveat}` : ''}${advice ? `. ${escapeMarkdownText(advice, 300)}` : ''}`,
        ...(shown.length ? ['>', ...shown.map((g) => alertGateLine(g, report, byId))] : []),
        ...(named.length > shown.length ? [`> - and ${named.length - shown.length} more in the gate table`] : []),
    ];
}
function markdown_commitText(hash, context) {
    const sha = commitOf(hash);
    if (sha === null)
        return hash === null ? 'no commit' : escapeMarkdownText(hash, 20);
    return context.repoUrl ? `[\`${sha.slice(0, 7)}\`](${context.repoUrl}/commit/${sha})` : `\`${sha.slice(0, 7)}\``;
}
function baselineSource(report, baselinePath, context = {}) {
    if (report.baseline === null || baselinePath === null)
        return null;
    const from = context.baselineFrom;
    const limit = context.staleAfter;
    const ageMs = limit ? millisecondsBetween(report.baseline.created_at, limit.now) : null;
    return {
        source: from?.source ?? 'path',
        run_url: from?.runUrl ?? null,
        commits_behind: from?.commitsBehind ?? null,
        base_commit_run: from?.baseCommitRun ?? null,
        age_days: ageMs === null ? null : Math.round(ageMs / 8_640_000) / 10,
        stale: limit && limit.maxAgeDays > 0 && ageMs !== null ? ageMs > limit.maxAgeDays * 86_400_000 : null,
    };
}
/** ", from [`artifact:NAME`](run)": where the action found the baseline; empty for a path. */
function fromText(context) {
    const from = context.baselineFrom;
    if (!from)
        return '';
    const run = /^https?:\/\/[^\s()<>]+$/.test(from.runUrl) ? from.runUrl : null;
    const source = `\`${from.source.replace(/`/g, "'")}\``;
    return `, from ${run ? `[${source}](${run})` : source}`;
}
/** Which runs were compared, how far apart, on which golden set; where the rest of the report is. */
function provenanceLines(report, context, hint) {
    const { baseline: b, candidate: c, golden } = report;
    const age = b === null ? null : ageBetween(b.created_at, c.created_at);
    const ageText = age === null || age.text.startsWith('0 ')
        ? ''
        : age.negative
            ? `, created ${age.text} after the candidate`
            : `, ${age.text} older`;
    // A commit the database does not record says where it came from (the workflow context).
    const candidateFrom = commitSourceText('candidate', c.commit_source);
    const baselineFrom = commitSourceText('baseline', b?.commit_source);
    const links = [
        context.runUrl ? `[workflow run and job summary](${context.runUrl})` : '',
        // The CLI names its full report only where rows were cut; the action always links where it is.
        context.runUrl && hint ? `full report: ${hint}` : '',
    ].filter((x) => x !== '');
    const lines = [
        `**Candidate** ${escapeMarkdownText(c.run_id, 60)} at ${markdown_commitText(c.commit_hash, context)} (${candidateFrom ? `${candidateFrom}; ` : ''}${escapeMarkdownText(c.created_at, 30)}) ${b === null ? '**without a baseline**: a candidate-only report, gated on `min` and `max` thresholds only' : `**vs baseline** ${escapeMarkdownText(b.run_id, 60)} at ${markdown_commitText(b.commit_hash, context)}${baselineFrom ? ` (${baselineFrom})` : ''}${ageText}${fromText(context)}`} · golden set \`${golden.fingerprint.slice(0, 19)}\`, ${numberFormat_plural(golden.queries, 'query', 'queries')}${links.length ? ` · ${links.join(' · ')}` : ''}`,
    ];
    lines.push(...repeatsMarkdownLines(report));
    if (context.config)
        lines.push('', configLine(context.config));
    if (context.config?.noise)
        lines.push('', noiseFloorMarkdown(context.config.noise));
    const warnings = reportWarnings(report, context).map((w) => markdownWarning(w, context));
    return [...lines, ...(warnings.length ? ['', ...warnings.map((w) => `- ⚠️ ${w}`)] : [])];
}
/** The gate config that produced the verdict. */
function configLine(config) {
    if (config.source === null)
        return 'Gate config: built-in default';
    return `Gate config: ${escapeMarkdownText(config.source, 80)} (sha256 \`${config.sha256}\`)`;
}
/** How the comment shows a warning's parts: settings as code, commits linked, text from the inputs escaped. */
function markdownStyle(context) {
    return {
        code: (text) => `\`${text}\``,
        commit: (sha) => markdown_commitText(sha, context),
        input: (text) => escapeMarkdownText(text, 60),
    };
}
/** A report warning as the comment says it: the one wording (warnings.ts), a sentence, its parts in Markdown. */
function markdownWarning(w, context) {
    const text = reportWarningText(w, markdownStyle(context));
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('?') ? '' : '.'}`;
}
function gateTableLines(report, byId) {
    if (report.gates.length === 0)
        return [];
    const open = openGates(report);
    const hidden = report.gates.length - open.length;
    return [
        '',
        ...table(['gate', 'candidate', 'delta', 'allowed', 'result'], ['---', '---:', '---:', '---', '---']),
        ...open.map((g) => {
            const unit = unitOf(g.metric, byId);
            // Short cells, so the table fits the comment's column unwrapped: the test's interval, p and detectable drop
            // are in the verdict's bullets and in *All gates* below.
            return `| ${gateName(g)} | ${numberFormat_formatValue(g.candidate, unit)} | ${escapeMarkdownText(gateDeltaShort(g, unit), 60)} | ${escapeMarkdownText(g.threshold, 120)} | ${resultText(g)} |`;
        }),
        ...(hidden ? ['', `${numberFormat_plural(hidden, 'more gate', 'more gates')} passed (see *All gates* below).`] : []),
        ...unjudgedLines(report),
    ];
}
/** The unjudged-documents sentence beside the retrieval gates, when it applies. */
function unjudgedLines(report) {
    const note = unjudgedNote(report);
    // Our own words and numbers only: the metric id goes in a code span, not through the mention escaping.
    return note ? ['', `⚠️ ${note.replace('judged@10', '`judged@10`')}`] : [];
}
function metricCells(id, def, m) {
    const unit = def?.unit;
    return [
        metricCode(id),
        numberFormat_formatValue(m.baseline, unit),
        numberFormat_formatValue(m.candidate, unit),
        `${formatDelta(m.delta, unit)}${mark(def, m)}`,
    ];
}
function keyMetricLines(report, byId) {
    const ids = keyMetrics(report);
    if (ids.length === 0)
        return [];
    if (report.baseline === null)
        return [
            '',
            ...table(['metric', 'candidate', 'n'], ['---', '---:', '---:']),
            ...ids.map((id) => {
                const m = report.metrics[id];
                return `| ${metricCode(id)} | ${numberFormat_formatValue(m.candidate, byId.get(id)?.unit)} | ${m.n.toLocaleString('en-US')} |`;
            }),
        ];
    const level = intervalLevel(report.alpha);
    const denominators = changedDenominators(report, ids).map(([id, m]) => `${metricCode(id)} ${m.n_baseline.toLocaleString('en-US')} → ${m.n.toLocaleString('en-US')}`);
    return [
        '',
        ...table(['metric', 'baseline', 'candidate', 'delta', `${level} CI`, 'p'], ['---', '---:', '---:', '---:', '---:', '---:']),
        ...ids.map((id) => {
            const m = report.metrics[id];
            const unit = byId.get(id)?.unit;
            const cells = metricCells(id, byId.get(id), m);
            if (!m.comparable)
                cells[0] += ' (not comparable)';
            return `| ${[...cells, intervalText(m.ci, unit), numberFormat_formatP(m.p_value, report.alpha)].join(' | ')} |`;
        }),
        '',
        `▲ ▼ significant at α ${report.alpha} (two-sided paired sign-flip test, the interval read off it; the gates' bounds are their own).${denominators.length ? ` Denominators differ: ${denominators.join(', ')}.` : ''}`,
    ];
}
/** Per-query rows share one table shape; `answers` adds the answer-change column. */
function queryTable(rows, report, answers) {
    const missing = {
        baseline: new Set(report.golden.added),
        candidate: new Set(report.golden.removed),
    };
    const metric = report.per_query_metric;
    const header = ['query', 'text', 'first relevant rank', `Δ ${metric}`, ...(answers ? ['answer'] : [])];
    const align = ['---', '---', '---:', '---:', ...(answers ? ['---'] : [])];
    return {
        head: table(header, align),
        rows: rows.map((o) => {
            const ranks = `${rankText(o.baseline_rank, missing.baseline.has(o.query_id))} → ${rankText(o.candidate_rank, missing.candidate.has(o.query_id))}`;
            const cells = [
                escapeMarkdownCell(o.query_id, 40),
                escapeMarkdownCell(o.query, 60),
                ranks,
                formatDelta(o.metric_delta),
                ...(answers ? [escapeMarkdownCell(o.answer_changes.join('; '), 80)] : []),
            ];
            return `| ${cells.join(' | ')} |`;
        }),
    };
}
/** What is true of every per-query row, said once: the settings that differ and how chunks were matched. */
function commonCause(report) {
    const parts = [];
    if (report.differences.length)
        parts.push(`The runs differ in ${nameList(report.differences, 40)}.`);
    if (report.chunker_version_match !== 'exact' || report.chunk_match_queries)
        parts.push(`Chunker versions differ: expected chunks of another chunker match by document (${chunkMatchSummary(report) ?? `\`${report.chunker_version_match}\``}).`);
    return parts.join(' ');
}
function worstLines(report, worst) {
    if (report.baseline === null)
        return [];
    if (worst.length === 0)
        return ['', `No query lost or slipped its first relevant hit; ${perQueryTally(report)}.`];
    const shown = worst.slice(0, OPEN_QUERY_ROWS);
    const withAnswers = shown.some((o) => o.answer_changes.length > 0);
    const { head, rows } = queryTable(shown, report, withAnswers);
    const cause = commonCause(report);
    return [
        '',
        `#### ${regressionsHeading(shown.length, worst.length, report.per_query_metric)}`,
        '',
        `${perQueryTally(report)}.${cause ? ` ${cause}` : ''}`,
        '',
        ...head,
        ...rows,
    ];
}
/** Untrusted names, capped so a run database cannot push the never-cut part past the limit. */
function nameList(names, max) {
    return (names
        .slice(0, 20)
        .map((n) => escapeMarkdownText(n, max))
        .join(', ') + (names.length > 20 ? ` and ${names.length - 20} more` : ''));
}
/** Each failed answer gate's failing queries, collapsed: the ids, escaped, at most MAX_FAILING_QUERIES. */
function failingQueriesLines(report) {
    return report.gates
        .filter((g) => g.failing_queries && g.failing_queries.length > 0)
        .flatMap((g) => {
        const count = g.failing_count ?? g.failing_queries.length;
        const more = count > g.failing_queries.length ? ` (the first ${g.failing_queries.length})` : '';
        return details(`Queries that failed ${gateName(g)} (${count.toLocaleString('en-US')})${more}`, [
            g.failing_queries.map((id) => escapeMarkdownText(id, 80)).join(', '),
        ]);
    });
}
function details(summary, body) {
    return ['', `<details><summary>${summary}</summary>`, '', ...body, '', '</details>'];
}
const RUN_ROWS = [
    ['run', 'run_id'],
    ['suite', 'suite'],
    ['commit', 'commit_hash'],
    ['created', 'created_at'],
    ['chunker', 'chunker_version'],
    ['embedding model', 'embedding_model'],
    ['index', 'index_version'],
];
function runCell(r, key) {
    const v = r[key];
    if (Array.isArray(v))
        return escapeMarkdownCell(v.join(', '), 80);
    // 12 characters name a commit and fit the column (a whole SHA cannot wrap).
    if (key === 'commit_hash' && typeof v === 'string')
        return escapeMarkdownCell(v.slice(0, 12));
    return escapeMarkdownCell(v, 80);
}
/** The runs side by side and every list the open part only counts. Never cut: each list is capped. */
function runDetailLines(report) {
    const { golden, baseline } = report;
    const lines = [
        ...(baseline === null
            ? [
                ...table(['', 'candidate'], ['---', '---']),
                ...RUN_ROWS.map(([label, key]) => `| ${label} | ${runCell(report.candidate, key)} |`),
                '',
                `Golden set \`${golden.fingerprint}\`: ${numberFormat_plural(golden.queries, 'query', 'queries')}.`,
            ]
            : [
                ...table(['', 'baseline', 'candidate'], ['---', '---', '---']),
                ...RUN_ROWS.map(([label, key]) => `| ${label} | ${runCell(baseline, key)} | ${runCell(report.candidate, key)} |`),
                '',
                `Golden set \`${golden.fingerprint}\`: ${numberFormat_plural(golden.queries, 'query', 'queries')}, ${golden.shared.toLocaleString('en-US')} in both runs. Chunk match: \`${report.chunker_version_match}\`${report.chunk_match_queries ? ` (${chunkMatchSummary(report)})` : ''}.`,
            ]),
    ];
    const list = (text, ids) => (ids.length ? ['', `${text}: ${nameList(ids, 40)}.`] : []);
    lines.push(...list('Settings that differ', report.differences));
    lines.push(...list('Queries only in the candidate run', golden.added));
    const missing = report.options.mean_over === 'trec' ? "left out of the candidate's means" : 'counted as misses in the candidate';
    lines.push(...list(`Queries only in the baseline run (${missing})`, golden.removed));
    for (const side of ['baseline', 'candidate']) {
        lines.push(...list(`Result query ids of the ${side} not in the golden set`, golden.unknown_query_ids[side]));
        lines.push(...list(`Queries with more than one result in the ${side}`, golden.duplicate_query_ids[side]));
    }
    return details('Runs compared', lines);
}
function allGatesLines(report, byId) {
    const withNotes = report.gates.filter((g) => g.note !== '');
    const tested = report.gates.some((g) => g.ci !== undefined || g.margin !== undefined);
    if (report.gates.length <= OPEN_GATE_ROWS && withNotes.length === 0 && !tested)
        return [];
    const rows = report.gates.map((g) => {
        const unit = unitOf(g.metric, byId);
        const result = [resultText(g), detectableText(g, unit)].filter(Boolean).join(', ');
        return `| ${gateName(g)} | ${numberFormat_formatValue(g.baseline, unit)} | ${numberFormat_formatValue(g.candidate, unit)} | ${escapeMarkdownText(gateDeltaText(g, unit, report.alpha), 200)} | ${escapeMarkdownText(g.threshold, 80)} | ${escapeMarkdownText(result, 80)} | ${escapeMarkdownCell(g.note, 200)} |`;
    });
    return details(`All gates (${report.gates.length}) with their tests and notes`, [
        ...table(['gate', 'baseline', 'candidate', 'delta and test', 'allowed', 'result', 'note'], ['---', '---:', '---:', '---:', '---', '---', '---']),
        ...rows,
    ]);
}
function querySection(summary, name, rows, report, answers) {
    if (rows.length === 0)
        return null;
    const t = queryTable(rows, report, answers);
    return {
        head: ['', `<details><summary>${summary} (${rows.length.toLocaleString('en-US')})</summary>`, '', ...t.head],
        rows: t.rows,
        tail: ['', '</details>'],
        name,
        cut: 0,
    };
}
/** "225", or "211 → 216" when the denominators differ; the paired count when it is neither. */
function denominatorText(m) {
    const n = m.n_baseline === m.n ? m.n.toLocaleString('en-US') : `${m.n_baseline} → ${m.n}`;
    const paired = m.n_paired !== null && (m.n_paired !== m.n || m.n_paired !== m.n_baseline);
    return `${n}${paired ? ` (${m.n_paired.toLocaleString('en-US')} paired)` : ''}`;
}
/** Every metric, family by family (a row names its family when it starts one), with the test where there is one. */
function allMetricsSection(report, defs) {
    if (report.baseline === null)
        return candidateMetricsSection(report, defs);
    const rows = [];
    let family = '';
    for (const def of defs) {
        const m = report.metrics[def.id];
        if (!m)
            continue;
        const cells = metricCells(def.id, def, m);
        if (def.family !== family)
            cells[0] = `**${def.family}** ${cells[0]}`;
        family = def.family;
        if (!m.comparable)
            cells[0] += ' (not comparable)';
        rows.push(`| ${[...cells, intervalText(m.ci, def.unit), numberFormat_formatP(m.p_value, report.alpha), denominatorText(m)].join(' | ')} |`);
    }
    return {
        head: [
            '',
            '<details><summary>All metrics</summary>',
            '',
            ...table(['metric', 'baseline', 'candidate', 'delta', `${intervalLevel(report.alpha)} CI`, 'p', 'n'], ['---', '---:', '---:', '---:', '---:', '---:', '---:']),
        ],
        rows,
        tail: ['', '</details>'],
        name: 'all metrics',
        cut: 0,
    };
}
/** All metrics of a candidate-only report: the value and its denominator. */
function candidateMetricsSection(report, defs) {
    const rows = [];
    let family = '';
    for (const def of defs) {
        const m = report.metrics[def.id];
        if (!m)
            continue;
        const id = def.family !== family ? `**${def.family}** ${metricCode(def.id)}` : metricCode(def.id);
        family = def.family;
        rows.push(`| ${id} | ${numberFormat_formatValue(m.candidate, def.unit)} | ${m.n.toLocaleString('en-US')} |`);
    }
    return {
        head: [
            '',
            '<details><summary>All metrics</summary>',
            '',
            ...table(['metric', 'candidate', 'n'], ['---', '---:', '---:']),
        ],
        rows,
        tail: ['', '</details>'],
        name: 'all metrics',
        cut: 0,
    };
}
/** The key metrics of every breakdown group that has a value; null when no group has one. */
function breakdownSection(report, byId) {
    const key = keyMetrics(report);
    const rows = [];
    for (const [kind, groups] of Object.entries(report.breakdowns)) {
        for (const name of Object.keys(groups).sort()) {
            for (const id of key) {
                const m = groups[name][id];
                if (!m || (m.baseline === null && m.candidate === null))
                    continue;
                const cells = report.baseline === null
                    ? [metricCode(id), numberFormat_formatValue(m.candidate, byId.get(id)?.unit), String(m.n)]
                    : [...metricCells(id, byId.get(id), m), `${m.n_baseline} / ${m.n}`];
                rows.push(`| ${[kind, escapeMarkdownCell(name, 60), ...cells].join(' | ')} |`);
            }
        }
    }
    if (rows.length === 0)
        return null;
    return {
        head: [
            '',
            '<details><summary>Breakdowns</summary>',
            '',
            ...(report.baseline === null
                ? table(['by', 'group', 'metric', 'candidate', 'n'], ['---', '---', '---', '---:', '---:'])
                : table(['by', 'group', 'metric', 'baseline', 'candidate', 'delta', 'n (base / cand)'], ['---', '---', '---', '---:', '---:', '---:', '---:'])),
        ],
        rows,
        tail: ['', '</details>'],
        name: 'breakdowns',
        cut: 0,
    };
}
/** Never cut: the open part, then the gates in full and the run details (each list in them capped). */
function fixedLines(report, byId, context, hint) {
    return [
        ...alertLines(report, byId, context),
        '',
        ...provenanceLines(report, context, hint),
        ...gateTableLines(report, byId),
        ...keyMetricLines(report, byId),
        ...trendMarkdownLines(context.trend, byId),
        ...worstLines(report, regressionsBySeverity(report.per_query)),
        ...flakyMarkdownLines(report),
        ...allGatesLines(report, byId),
        ...failingQueriesLines(report),
        ...runDetailLines(report),
    ];
}
const PER_QUERY_HINT = "_A query's full row in the candidate (hits returned, top hit, reciprocal rank, citation checks, WFGY label): " +
    '`evalverdict aggregate CANDIDATE.sqlite --golden GOLDEN --per-query`; the JSON report has it as `candidate_row`._';
function buildSections(report, defs, byId) {
    const worst = regressionsBySeverity(report.per_query);
    const losses = querySection(`Regressions and losses: ${regressionOrder(report.per_query_metric)}`, 'regressions and losses', worst, report, true);
    // Where each row's details are (docs/compare.md): the open part's budget is not touched, this is collapsed.
    losses?.tail.unshift('', PER_QUERY_HINT);
    const wins = querySection(`Wins: ${winOrder(report.per_query_metric)}`, 'wins', winsByGain(report.per_query), report, false);
    const answers = querySection('Answer changes', 'answer changes', reportParts_answerChanges(report.per_query), report, true);
    const metrics = allMetricsSection(report, defs);
    const breakdowns = breakdownSection(report, byId);
    const slices = sliceSection(report, byId);
    const present = (list) => list.filter((s) => s !== null);
    return {
        sections: present([losses, wins, answers, slices, metrics, breakdowns]),
        cutOrder: present([breakdowns, wins, answers, losses, metrics, slices]),
    };
}
/** Every slice of the per_slice gates, collapsed: its numbers, its test and its result, the small slices too. */
function sliceSection(report, byId) {
    const slices = report.gates.filter((g) => g.slice);
    if (slices.length === 0)
        return null;
    const rows = slices.map((g) => {
        const unit = unitOf(g.metric, byId);
        const cells = [
            escapeMarkdownText(wherePairs(g.where ?? {}), 60),
            metricCode(g.metric),
            (g.slice_queries ?? 0).toLocaleString('en-US'),
            numberFormat_formatValue(g.baseline, unit),
            numberFormat_formatValue(g.candidate, unit),
            escapeMarkdownText(gateDeltaText(g, unit, report.alpha), 200),
            resultText(g),
        ];
        return `| ${cells.join(' | ')} |`;
    });
    return {
        head: [
            '',
            `<details><summary>Slices (${slices.length}): the per_slice gates in every slice</summary>`,
            '',
            ...table(['slice', 'metric', 'queries', 'baseline', 'candidate', 'delta and test', 'result'], ['---', '---', '---:', '---:', '---:', '---:', '---']),
        ],
        rows,
        tail: ['', '</details>'],
        name: 'slices',
        cut: 0,
    };
}
/** The note that says how many rows of a section were cut (none when none were). */
function noteLines(s, hint) {
    return s.cut > 0
        ? [
            '',
            `_${s.cut.toLocaleString('en-US')} more ${s.cut === 1 ? 'row' : 'rows'} of ${s.name} left out to fit GitHub's comment limit (the least severe)${hint ? `; the full report is in ${hint}` : ''}._`,
        ]
        : [];
}
function sectionText(s, hint) {
    return [...s.head, ...s.rows, ...noteLines(s, hint), ...s.tail].join('\n');
}
function renderReportMarkdown(report, defs, options = { maxLength: GITHUB_COMMENT_LIMIT }) {
    return renderReportMarkdowns(report, defs, options).cut;
}
/**
 * The untruncated report and the one cut to `options.maxLength` (the same two documents as two
 * renderReportMarkdown calls). The full report names where it is only through the cut one.
 */
function renderReportMarkdowns(report, defs, options) {
    const context = options.context ?? {};
    const byId = new Map(defs.map((d) => [d.id, d]));
    // The sections are built once (a large run's rows are escaped once): the full layout cuts nothing, then the
    // cut one removes rows from the same arrays.
    const sections = buildSections(report, defs, byId);
    const full = layOut(report, fixedLines(report, byId, context, undefined), sections, Infinity, undefined);
    const hint = typeof options.fullReportHint === 'function' ? options.fullReportHint(full) : options.fullReportHint;
    const fixed = fixedLines(report, byId, context, hint);
    return { full, cut: layOut(report, fixed, sections, options.maxLength, hint) };
}
/**
 * The document from its parts, rows cut from `sections` (which it changes) until it fits `maxLength`: from the end
 * of each section (its least severe rows), sections in `cutOrder`; a cut section names `hint`.
 */
function layOut(report, fixed, parts, maxLength, hint) {
    const { sections, cutOrder } = parts;
    const footer = [
        '',
        `<sub>EvalVerdict · paired sign-flip test, ${report.options.permutations.toLocaleString('en-US')} flips, seed ${report.options.seed}; metric intervals at ${intervalLevel(report.alpha)} from the same test; gate intervals at ${intervalLevel(2 * report.alpha)}, Student's t, simultaneous over the gates' tests · mean over ${report.options.mean_over}, min grade ${report.options.min_grade}</sub>`,
    ];
    const fixedText = fixed.join('\n');
    const footerText = footer.join('\n');
    // Lengths are counted, not measured on joined text (a 100,000-query report has megabytes of rows): a section's
    // text is its lines joined by "\n", so its length is each line's length plus one, less one.
    const linesLength = (lines) => lines.reduce((n, line) => n + line.length + 1, 0);
    const rowChars = new Map(sections.map((s) => [s, linesLength(s.rows)]));
    const sectionLength = (s) => linesLength(s.head) + rowChars.get(s) + linesLength(noteLines(s, hint)) + linesLength(s.tail) - 1;
    // The exact length of the document below: fixed, "\n" + each section, "\n" + footer, final "\n".
    const total = () => fixedText.length + sections.reduce((n, s) => n + 1 + sectionLength(s), 0) + 1 + footerText.length + 1;
    // The notes grow as rows go (the count's digits), so cut a little past the limit and measure again.
    while (total() > maxLength) {
        const section = cutOrder.find((s) => s.rows.length > 0);
        if (!section)
            break;
        let excess = total() - maxLength + 200;
        let length = rowChars.get(section);
        while (section.rows.length > 0 && excess > 0) {
            const removed = section.rows.pop();
            length -= removed.length + 1;
            excess -= removed.length + 1;
            section.cut++;
        }
        rowChars.set(section, length);
    }
    return `${[fixedText, ...sections.map((s) => sectionText(s, hint)), footerText].join('\n')}\n`;
}

;// CONCATENATED MODULE: ./src/stableJson.ts
/** Deterministic JSON: sorted keys, finite numbers only. Used for every JSON we print or hash. */

/**
 * A key a JavaScript object lists before all others, in numeric order (an array index: "0" to "4294967294" without
 * leading zeros). JSON.stringify writes an object's keys in that order, so an object holding one (a category "2024",
 * a tag "10") cannot be written sorted by JSON.stringify.
 */
function isArrayIndex(key) {
    const c = key.charCodeAt(0);
    if (c < 0x30 || c > 0x39 || key.length > 10)
        return false;
    if (key === '0')
        return true;
    return c !== 0x30 && /^\d+$/.test(key) && Number(key) < 4294967295;
}
function normalize(value, n) {
    // As JSON.stringify: an object's toJSON (a Date) gives its value, and a boxed primitive is its primitive.
    if (typeof value === 'object' && value !== null) {
        if (typeof value.toJSON === 'function')
            value = value.toJSON();
        if (value instanceof Number || value instanceof String || value instanceof Boolean)
            value = value.valueOf();
    }
    // What JSON has no value for (undefined, a function, a symbol) is null in a list and left out of an object.
    if (value === null || value === undefined || typeof value === 'function' || typeof value === 'symbol')
        return null;
    if (typeof value === 'number') {
        if (!Number.isFinite(value))
            return null;
        return n.round ? numberFormat_round4(value) : value;
    }
    // Array.from, not map: a hole in a sparse list is undefined, so null, as JSON.stringify writes it.
    if (Array.isArray(value))
        return Array.from(value, (v) => normalize(v, n));
    if (value instanceof Map)
        return normalize(Object.fromEntries(value), n);
    if (typeof value === 'object') {
        // No prototype: a key such as `__proto__` (a category, a tag, a stage from the input) is a key like any other.
        const out = Object.create(null);
        for (const key of Object.keys(value).sort()) {
            const v = value[key];
            if (v === undefined || typeof v === 'function' || typeof v === 'symbol')
                continue;
            if (!n.indexKeys && isArrayIndex(key))
                n.indexKeys = true;
            out[key] = normalize(v, n);
        }
        return out;
    }
    return value;
}
/**
 * `value` (normalized) as JSON.stringify(value, null, indent ? 2 : 0) writes it, but every object's keys in text
 * order (UTF-16 code units, as Array#sort orders strings), array-index keys included. `at` is the line break and
 * indentation of the current depth ('' for compact output).
 */
function writeSorted(value, at, out) {
    if (value === null || typeof value !== 'object') {
        out.push(JSON.stringify(value));
        return;
    }
    const inner = at === '' ? '' : `${at}  `;
    const colon = at === '' ? ':' : ': ';
    if (Array.isArray(value)) {
        if (value.length === 0) {
            out.push('[]');
            return;
        }
        out.push('[');
        for (let i = 0; i < value.length; i++) {
            out.push(i === 0 ? inner : `,${inner}`);
            writeSorted(value[i], inner, out);
        }
        out.push(`${at}]`);
        return;
    }
    const keys = Object.keys(value).sort();
    if (keys.length === 0) {
        out.push('{}');
        return;
    }
    out.push('{');
    for (let i = 0; i < keys.length; i++) {
        out.push(i === 0 ? inner : `,${inner}`, JSON.stringify(keys[i]), colon);
        writeSorted(value[keys[i]], inner, out);
    }
    out.push(`${at}}`);
}
/**
 * The JSON text of `value` with sorted keys; `pretty`: indented by two spaces. JSON.stringify writes it when no
 * object has an array-index key (the usual case, and the fastest), writeSorted otherwise.
 */
function sortedJson(value, round, pretty) {
    const n = { round, indexKeys: false };
    const normalized = normalize(value, n);
    if (!n.indexKeys)
        return pretty ? JSON.stringify(normalized, null, 2) : JSON.stringify(normalized);
    const out = [];
    writeSorted(normalized, pretty ? '\n' : '', out);
    return out.join('');
}
/** Compact canonical JSON for hashing (no rounding). */
function canonicalJson(value) {
    return sortedJson(value, false, false);
}
/** The JSON we print: sorted keys, 4-decimal rounding, null for undefined or non-finite, 2-space indent. */
function stableJson(value) {
    return `${sortedJson(value, true, true)}\n`;
}
/** stableJson's JSON without the indentation and the final line break (one line, for outputs and logs). */
function compactStableJson(value) {
    return sortedJson(value, true, false);
}

;// CONCATENATED MODULE: ./schemas/golden-query.schema.json
const golden_query_schema_namespaceObject = /*#__PURE__*/JSON.parse('{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"golden-query.schema.json","title":"EvalVerdict golden query (one JSON Lines line)","description":"One line of a JSON Lines golden set: a query, or (first line only) a header (docs/golden-sets.md). Unknown keys are ignored with a warning naming the nearest known key.","anyOf":[{"$ref":"#/$defs/query"},{"$ref":"#/$defs/header"}],"$defs":{"texts":{"type":"array","items":{"type":["string","number"]}},"label":{"type":["string","number","null"]},"header":{"type":"object","additionalProperties":false,"properties":{"schema_version":{"type":["string","number"]},"name":{"type":"string"},"description":{"type":"string"},"profile":{"enum":["evalverdict","wfgy","paperbot"],"description":"Whose metric definitions apply (docs/golden-sets.md, \\"Metric profiles\\")."}}},"query":{"type":"object","additionalProperties":false,"required":["id","query"],"properties":{"id":{"type":["string","number"],"description":"Matched to the run\'s query_id as exact text."},"query":{"type":"string"},"lang":{"$ref":"#/$defs/label"},"expected_doc_ids":{"$ref":"#/$defs/texts","description":"Empty (with no `answerable`): the query should be refused."},"expected_chunk_ids":{"$ref":"#/$defs/texts"},"must_contain":{"$ref":"#/$defs/texts"},"forbidden":{"$ref":"#/$defs/texts"},"difficulty":{"$ref":"#/$defs/label"},"group":{"$ref":"#/$defs/label"},"category":{"$ref":"#/$defs/label"},"tags":{"$ref":"#/$defs/texts"},"vault":{"$ref":"#/$defs/label"},"answerable":{"type":"boolean"},"gold_supports":{"type":"array","items":{"type":"object","additionalProperties":false,"properties":{"rel_path":{"type":"string"},"heading_path":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/texts"}]},"snippets":{"$ref":"#/$defs/texts"},"newer":{"type":"boolean"}}}},"required_support_groups":{"type":"array","items":{"type":"array","items":{"type":"integer","minimum":0}}},"judgments":{"type":"object","additionalProperties":{"type":"integer"},"description":"chunk_id or doc_id -> grade."},"expected_lines":{"type":"object","additionalProperties":false,"required":["file","line_range"],"properties":{"file":{"type":"string"},"line_range":{"type":"array","items":{"type":"integer","minimum":1}}}},"gold_claim":{"type":"string"},"recency_conflict_rule":{"enum":["cite_newer","cite_both","acknowledge_both"]},"pending":{"type":"boolean"},"top_k":{"type":"integer","minimum":1,"description":"The query\'s own cutoff: hit@k, recall@k, mrr@k and nDCG@k score it at min(k, top_k)."},"notes":{},"note":{}}}}}');
;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./src/warnings.ts
/**
 * Warnings as data: what the readers and the report find, kept as values until an entry prints them
 * (src/render/warningText.ts words them for the terminal and the action's annotations, src/render/markdown.ts for the
 * comment). Two halves of one golden file merge their unknown keys as data (mergeWarnings), not by parsing text.
 */
const note = (text) => ({ kind: 'note', text });
/** Notes from texts, nulls (no warning) left out. */
const notes = (texts) => texts.filter((t) => typeof t === 'string').map(note);
/**
 * One warning per unknown key of a file and map, where a file read in two halves (two threads) gave one per half:
 * the counts added, the first half's line kept. The rest pass as they are, in order.
 */
function warnings_mergeWarnings(warnings) {
    const merged = [];
    const firstOf = new Map();
    for (const w of warnings) {
        if (w.kind !== 'unknown_key') {
            merged.push(w);
            continue;
        }
        const name = JSON.stringify([w.source, w.map, w.key]);
        const first = firstOf.get(name);
        if (first === undefined) {
            firstOf.set(name, merged.length);
            merged.push(w);
        }
        else {
            const earlier = merged[first];
            merged[first] = { ...earlier, count: earlier.count + w.count };
        }
    }
    return merged;
}

;// CONCATENATED MODULE: ./src/load/golden.ts
/**
 * Golden sets: JSON Lines (one query object per line, read with JSON.parse) or YAML (kebab's format, read with the
 * `yaml` package). Both go through one set of rules (GoldenCollector); messages name file and line.
 */











/** JSON Lines by the file's name (`.jsonl`, `.ndjson`); anything else is read as YAML. */
const goldenFormatOf = (file) => (/\.(jsonl|ndjson)$/i.test(file) ? 'jsonl' : 'yaml');
/** A query's keys, a header's: the golden-query schema's, the one list (editors read the same file). */
const QUERY_KEYS = Object.keys(golden_query_schema_namespaceObject.$defs.query.properties);
const KNOWN_KEYS = new Set(QUERY_KEYS);
/** The keys that state an expectation (hasExpectation); a golden set needs one in some query. */
const EXPECTATION_KEYS = [
    'expected_doc_ids',
    'expected_chunk_ids',
    'judgments',
    'gold_supports',
    'expected_lines',
    'must_contain',
    'forbidden',
    'gold_claim',
    'recency_conflict_rule',
    'answerable',
];
const HEADER_KEYS = new Set(Object.keys(golden_query_schema_namespaceObject.$defs.header.properties));
/** The metric profiles a golden set's header may name (docs/golden-sets.md, "Metric profiles"). */
const METRIC_PROFILES = ['evalverdict', 'wfgy', 'paperbot'];
/** Whether a value names one of METRIC_PROFILES. */
function isMetricProfile(value) {
    return typeof value === 'string' && METRIC_PROFILES.includes(value);
}
/** A header's `profile`, checked; `at` is its `file:line` for the message. */
function profileOf(value, at) {
    if (isMetricProfile(value))
        return value;
    throw new errors_InputError(`${at}: header \`profile\` must be one of ${METRIC_PROFILES.map((p) => JSON.stringify(p)).join(', ')}, got ${JSON.stringify(value)}`);
}
const SUPPORT_KEYS = new Set(['rel_path', 'heading_path', 'snippets', 'newer']);
const LINES_KEYS = new Set(['file', 'line_range']);
/** A JSON Lines line longer than this is refused: no golden query is near it, and it bounds one JSON.parse. */
const MAX_LINE_CHARS = 10 << 20;
/**
 * What one JSON Lines line may hold, checked on its text before JSON.parse builds it (lines of JSON_SCAN_FROM_CHARS or
 * more). A golden query holds a few lists and its ids; depth is not bounded (a deep value costs what its lists cost).
 */
const GOLDEN_LINE_BOUNDS = { ...JSON_VALUE_BOUNDS, depth: Number.POSITIVE_INFINITY };
/** A YAML golden set this large would read at least a second faster as JSON Lines (docs/golden-sets.md). */
const LARGE_YAML_BYTES = 2_500_000;
function readGoldenFile(file) {
    const bytes = readGoldenBytes(file);
    return readGolden(bytes, file, goldenFormatOf(file)).toSet(goldenFingerprint(bytes));
}
function readGoldenBytes(file) {
    try {
        return regularFile_readRegularFile(file, 'the golden set', regularFile_MAX_GOLDEN_BYTES);
    }
    catch (error) {
        throw cannotRead(file, error, 'the golden set');
    }
}
/** A golden set from its text; the fingerprint hashes the text as UTF-8. */
function parseGolden(text, source, format = goldenFormatOf(source)) {
    return readGolden(text, source, format).toSet(goldenFingerprint(text));
}
const parseGoldenJsonl = (text, source) => parseGolden(text, source, 'jsonl');
const parseGoldenYaml = (text, source) => parseGolden(text, source, 'yaml');
function readGolden(text, source, format, document) {
    const collector = new GoldenCollector(source, format, document);
    if (format === 'jsonl')
        readJsonl(withoutBom(text), source, 1, collector);
    else
        readYaml(typeof text === 'string' ? text : text.toString('utf8'), source, collector);
    return collector;
}
function withoutBom(text) {
    if (typeof text === 'string')
        return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return (text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf ? text.subarray(3) : text);
}
// ---------------------------------------------------------------------------------------------------------
// JSON Lines
function readJsonl(text, source, firstLine, collector) {
    let first = firstLine === 1;
    forEachJsonlValue(text, source, firstLine, (value, line) => {
        if (first && isHeader(value))
            collector.header(value, line);
        else
            collector.add(value, { line, keyLine: () => line });
        first = false;
    });
}
/** A first line that is an object without `id` and `query` is the file's header (`schema_version`, `description`). */
const isHeader = (value) => isPlainObject(value) && !Object.hasOwn(value, 'id') && !Object.hasOwn(value, 'query');
/** Each non-blank line's JSON value and line number, until `each` returns false; CRLF line ends are read as LF. */
function forEachJsonlValue(text, source, firstLine, each) {
    // A second half's first line is counted only when a message needs it.
    let base = typeof firstLine === 'number' ? firstLine : -1;
    const lineOf = (index) => (base === -1 ? (base = firstLine()) : base) + index;
    for (let start = 0, index = 0; start < text.length; index++) {
        let end = typeof text === 'string' ? text.indexOf('\n', start) : text.indexOf(10, start);
        if (end === -1)
            end = text.length;
        const next = end + 1;
        if ((typeof text === 'string' ? text.charCodeAt(end - 1) : text[end - 1]) === 13)
            end--;
        if (end - start > MAX_LINE_CHARS)
            throw new errors_InputError(`${source}:${lineOf(index)}: the line is over 10 MB; a golden query is one JSON object per line`);
        const line = typeof text === 'string' ? text.slice(start, end) : text.toString('utf8', start, end);
        start = next;
        if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim() === ''))
            continue;
        refuseJsonPastBounds(line, GOLDEN_LINE_BOUNDS, `${source}:${lineOf(index)}`, 'in one line');
        let value;
        try {
            value = JSON.parse(line);
        }
        catch (error) {
            throw new errors_InputError(`${source}:${lineOf(index)}: not valid JSON (${error.message})`);
        }
        if (each(value, lineOf(index)) === false)
            return;
    }
}
/** The file's values, checked as readGoldenFile checks them (an invalid file is not converted). */
function readGoldenDocument(file) {
    const document = { header: null, items: [] };
    readGolden(readGoldenBytes(file), file, goldenFormatOf(file), document);
    return document;
}
/** A golden document as file text: a JSON Lines header line, or a YAML map holding it beside `queries`. */
function formatGolden(doc, format) {
    if (format === 'jsonl')
        return [...(doc.header ? [doc.header] : []), ...doc.items].map((v) => `${JSON.stringify(v)}\n`).join('');
    return (0,dist/* stringify */.As)(doc.header ? { ...doc.header, queries: doc.items } : doc.items, { lineWidth: 0 });
}
/** A golden set of plain query objects (an importer's), read by the same rules as a file's. */
function goldenSetOfItems(items, source) {
    const collector = new GoldenCollector(source, 'jsonl');
    items.forEach((item, i) => {
        collector.add(item, { line: i + 1, keyLine: () => i + 1 });
    });
    return collector.toSet(goldenFingerprint(formatGolden({ header: null, items: [...items] }, 'jsonl')));
}
// ---------------------------------------------------------------------------------------------------------
// YAML
/** A YAML golden set: a list of queries, or a map whose `queries` key holds the list. */
function readYaml(text, source, collector) {
    const { doc, lineOf, keyLine } = parseYamlWithLines(withoutBom(text), source);
    let root = doc.contents;
    if ((0,dist/* isMap */.jh)(root) && root.has('queries')) {
        if (collector.document) {
            const { queries: _queries, ...header } = root.toJSON();
            if (Object.keys(header).length > 0)
                collector.document.header = header;
        }
        if (root.has('profile'))
            collector.profile = profileOf(root.get('profile'), `${source}:${keyLine(root, 'profile')}`);
        root = root.get('queries', true);
    }
    if (!(0,dist/* isSeq */.oP)(root))
        throw new errors_InputError(`${source}:${lineOf(root)}: the golden set must be a list of queries (or a map with a \`queries\` list)`);
    for (const item of root.items) {
        const place = { line: lineOf(item), keyLine: (key) => ((0,dist/* isMap */.jh)(item) ? keyLine(item, key) : lineOf(item)) };
        collector.add((0,dist/* isMap */.jh)(item) ? item.toJSON() : item === null ? null : item.toJSON(), place, (0,dist/* isMap */.jh)(item) ? nonTextJudgmentKeys(item) : []);
    }
    if (text.length >= LARGE_YAML_BYTES) {
        collector.warnings.push(note(`${source}: a YAML golden set of ${(text.length / 1e6).toFixed(1)} MB takes seconds to read; as JSON Lines it reads about 20 times faster (\`evalverdict golden convert ${source} golden.jsonl\`)`));
    }
}
/** `judgments` keys YAML read as numbers or booleans (`{007: 2}` judges "7"): as written and as read. */
function nonTextJudgmentKeys(item) {
    const judgments = item.get('judgments', true);
    if (!(0,dist/* isMap */.jh)(judgments))
        return [];
    const keys = [];
    for (const { key } of judgments.items) {
        if ((0,dist/* isScalar */.jn)(key) && (typeof key.value === 'number' || typeof key.value === 'boolean'))
            keys.push({ written: key.source ?? String(key.value), read: String(key.value) });
    }
    return keys;
}
const noNonText = () => ({
    ids: { count: 0, first: null },
    lists: { count: 0, first: null },
    judgmentKeys: { count: 0, first: null },
});
function nonTextWarnings(t) {
    const warnings = [];
    const more = (n, what) => n > 1 ? ` (and ${n - 1} more ${n - 1 === 1 ? what : `${what}s`} in this file)` : '';
    if (t.ids.first !== null) {
        const { at, id } = t.ids.first;
        warnings.push(`${at}: \`id\` is a YAML number or boolean, read as the text "${inputText_oneLine(String(id))}"${more(t.ids.count, 'id')}; quote ids (\`id: "001"\`) so they match the run's query_id as written`);
    }
    if (t.lists.first !== null) {
        const { at, id, key, value } = t.lists.first;
        warnings.push(`${at}: query \`${inputText_oneLine(String(id))}\`: \`${inputText_oneLine(key)}\` holds a YAML number, read as the text "${inputText_oneLine(String(value))}"${more(t.lists.count, 'list')}; quote such values (\`["007"]\`) so they are read as written`);
    }
    if (t.judgmentKeys.first !== null) {
        const { at, id, key, value } = t.judgmentKeys.first;
        warnings.push(`${at}: query \`${inputText_oneLine(String(id))}\`: the \`judgments\` key \`${inputText_oneLine(key)}\` is a YAML number or boolean, read as the text "${inputText_oneLine(String(value))}"${more(t.judgmentKeys.count, 'key')}; quote such keys (\`{"007": 2}\`) so they match the run's ids as written`);
    }
    return warnings;
}
/** The golden lists of ids and strings: a number in one becomes its text. */
const TEXT_LISTS = ['expected_doc_ids', 'expected_chunk_ids', 'must_contain', 'forbidden', 'tags'];
const SUPPORT_TEXT_LISTS = ['heading_path', 'snippets'];
/** The queries of one golden file (or half of one) as they are read, with their warnings. */
class GoldenCollector {
    source;
    document;
    queries = [];
    warnings = [];
    /** Only YAML's: JSON's numbers are written as numbers. */
    nonText;
    lineOfId = new Map();
    labels = new Map();
    /** Unknown keys by name (`map\0key` inside gold_supports or expected_lines), in the order first met. */
    unknownKeys = new Map();
    expectation = false;
    /** The header's metric profile, when it names one. */
    profile;
    /** `document`: where to keep the file's values as read (golden convert). */
    constructor(source, format, document) {
        this.source = source;
        this.document = document;
        this.nonText = format === 'yaml' ? noNonText() : null;
    }
    header(item, line) {
        if (this.document)
            this.document.header = item;
        if (item.profile !== undefined)
            this.profile = profileOf(item.profile, `${this.source}:${line}`);
        for (const key of Object.keys(item)) {
            if (!HEADER_KEYS.has(key))
                this.warnings.push(note(`${this.source}:${line}: unknown header key \`${inputText_oneLine(key)}\` (ignored; a query needs \`id\` and \`query\`)${suggest_suggest(key, HEADER_KEYS)}`));
        }
    }
    add(item, place, nonTextKeys = []) {
        if (!isPlainObject(item))
            throw new errors_InputError(`${this.source}:${place.line}: each golden query must be a map with \`id\` and \`query\``);
        const fail = (key, message) => {
            const who = item.id !== undefined && item.id !== null ? `\`${inputText_oneLine(String(item.id))}\`` : `at line ${place.line}`;
            throw new errors_InputError(`${this.source}:${place.keyLine(key)}: query ${who}: ${message}`);
        };
        const q = toGoldenQuery(item, fail, this.labels);
        const earlier = this.lineOfId.get(q.id);
        if (earlier !== undefined)
            fail('id', `duplicate id (first defined at line ${earlier})`);
        this.lineOfId.set(q.id, place.line);
        this.tallyUnknownKeys(item, place);
        if (!this.expectation && hasExpectation(item, q))
            this.expectation = true;
        if (this.nonText)
            this.tallyNonText(this.nonText, item, q, place, nonTextKeys);
        this.queries.push(q);
        this.document?.items.push(item);
    }
    /** Counts each unknown key once per query; the first query's line is the one the warning names. */
    tallyUnknownKeys(item, place) {
        const note = (inMap, key, lineKey) => {
            const name = inMap === null ? key : `${inMap}\0${key}`;
            const known = this.unknownKeys.get(name);
            if (known === undefined)
                this.unknownKeys.set(name, {
                    inMap,
                    key,
                    line: place.keyLine(lineKey),
                    queries: 1,
                    lastQuery: this.queries.length,
                });
            else if (known.lastQuery !== this.queries.length) {
                known.queries++;
                known.lastQuery = this.queries.length;
            }
        };
        for (const key of Object.keys(item))
            if (!KNOWN_KEYS.has(key))
                note(null, key, key);
        // Misspelled keys inside the maps with fixed keys: a `snippet:` for `snippets:` would drop the snippet check.
        if (Array.isArray(item.gold_supports)) {
            for (const support of item.gold_supports)
                for (const key of Object.keys(support))
                    if (!SUPPORT_KEYS.has(key))
                        note('gold_supports', key, 'gold_supports');
        }
        if (isPlainObject(item.expected_lines)) {
            for (const key of Object.keys(item.expected_lines))
                if (!LINES_KEYS.has(key))
                    note('expected_lines', key, 'expected_lines');
        }
    }
    /** Whether some query states an expectation (hasExpectation). */
    get anyExpectation() {
        return this.expectation;
    }
    /** Every warning: the header's and the file's, one per unknown key, then YAML's non-text values. */
    allWarnings() {
        const unknown = [...this.unknownKeys.values()].map((u) => unknownKeyWarning(this.source, u));
        return [...this.warnings, ...unknown, ...(this.nonText ? notes(nonTextWarnings(this.nonText)) : [])];
    }
    tallyNonText(tally, item, q, place, nonTextKeys) {
        const note = (of, key, value) => {
            if (of.count++ === 0)
                of.first = { at: `${this.source}:${place.line}`, id: q.id, key, value };
        };
        if (typeof item.id !== 'string')
            note(tally.ids, 'id', q.id);
        for (const key of TEXT_LISTS) {
            const found = numberIn(item[key]);
            if (found !== undefined)
                note(tally.lists, key, String(found));
        }
        q.goldSupports.forEach((_, s) => {
            const support = item.gold_supports[s];
            for (const field of SUPPORT_TEXT_LISTS) {
                const found = numberIn(support[field]);
                if (found !== undefined)
                    note(tally.lists, `gold_supports[${s}].${field}`, String(found));
            }
        });
        for (const key of nonTextKeys)
            if (q.judgments.has(key.read))
                note(tally.judgmentKeys, key.written, key.read);
    }
    /**
     * The set, refused when it has no queries. One in which no query states an expectation is read (an ops-only suite
     * gates latency, cost and error rates, which need none) and says so in `noExpectation`: the gates that compare
     * with the golden set refuse it then (requireExpectations, src/gate/expectations.ts).
     */
    toSet(fingerprint) {
        if (this.queries.length === 0) {
            throw new errors_InputError(`${this.source}: the golden set has no queries; ${expectationKeysText()}`);
        }
        return {
            source: this.source,
            queries: this.queries,
            warnings: this.allWarnings(),
            fingerprint,
            ...(this.profile !== undefined ? { profile: this.profile } : {}),
            ...(this.anyExpectation ? {} : { noExpectation: this.noExpectationText() }),
        };
    }
    noExpectationText() {
        const n = this.queries.length;
        const what = n === 1
            ? 'its one query states no expectation'
            : `none of its ${n.toLocaleString('en-US')} queries states an expectation`;
        // Most often the expectation is there under a misspelt key (`judgements:`), whose warning would not be seen.
        const unknown = [...this.unknownKeys.values()].filter((u) => u.inMap === null);
        const named = unknown
            .slice(0, 3)
            .map((u) => `\`${u.key}\` at line ${u.line}${suggest_suggest(u.key, QUERY_KEYS).replace(/^; /, ', ')}`);
        if (unknown.length > 3)
            named.push(`and ${unknown.length - 3} more`);
        return `${what}${named.length > 0 ? ` (unknown keys, ignored: ${named.join('; ')})` : ''}`;
    }
}
/** The keys that state an expectation, for messages. */
function expectationKeysText() {
    const keys = `${EXPECTATION_KEYS.slice(0, -1).join(', ')} or ${EXPECTATION_KEYS.at(-1)}`;
    return `a query needs one of ${keys} (docs/golden-sets.md, "Expectations")`;
}
function unknownKeyWarning(source, u) {
    const known = u.inMap === null ? QUERY_KEYS : [...(u.inMap === 'gold_supports' ? SUPPORT_KEYS : LINES_KEYS)];
    return { kind: 'unknown_key', source, line: u.line, map: u.inMap, key: u.key, count: u.queries, known };
}
/**
 * Whether a query states something a metric can score it against: relevant chunks or documents (a non-empty list,
 * judgments, supports, lines), what the answer must or must not say, a claim or recency rule, or whether it is
 * answerable (`answerable` written, or an empty `expected_doc_ids`: refuse). Empty lists and maps state nothing; the
 * default `answerable: true` is not stated. docs/golden-sets.md, "Expectations", says the same.
 */
function hasExpectation(item, q) {
    return (q.expectedDocIds !== null ||
        (q.expectedChunkIds?.length ?? 0) > 0 ||
        q.judgments.size > 0 ||
        q.goldSupports.length > 0 ||
        q.expectedLines !== null ||
        q.mustContain.length > 0 ||
        q.forbidden.length > 0 ||
        q.goldClaim !== null ||
        q.recencyConflictRule !== null ||
        typeof item.answerable === 'boolean');
}
function numberIn(value) {
    if (!Array.isArray(value))
        return undefined;
    for (const x of value)
        if (typeof x === 'number')
            return x;
    return undefined;
}
const isPlainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
// ---------------------------------------------------------------------------------------------------------
// The fingerprint
/**
 * sha256 of the golden file's bytes, as `sha256:` and hex: any edit to the file changes it, reformatting and
 * converting included (docs/golden-sets.md). A set built in memory hashes as the JSON Lines of its queries.
 */
function goldenFingerprint(...parts) {
    const hash = (0,external_node_crypto_namespaceObject.createHash)('sha256');
    for (const part of parts)
        hash.update(part);
    return `sha256:${hash.digest('hex')}`;
}
/** Golden files smaller than this are read whole: two threads reading half each save little on them. */
const SPLIT_MIN_BYTES = (/* unused pure expression or super */ null && (1 << 20));
/**
 * Half `part` of a JSON Lines golden file, cut at the first line break past the middle byte; null when the file
 * is too small to cut or the half does not read cleanly (the whole file's reading then reports its error).
 */
function readGoldenHalf(file, part, minBytes = SPLIT_MIN_BYTES) {
    let bytes;
    try {
        bytes = readRegularFile(file, 'the golden set', MAX_GOLDEN_BYTES);
    }
    catch {
        return null;
    }
    const split = bytes.indexOf(10, bytes.length >> 1) + 1;
    if (bytes.length < minBytes || split === 0 || split === bytes.length)
        return null;
    const linesIn = (from, to) => {
        let lines = 1;
        for (let at = bytes.indexOf(10, from); at !== -1 && at < to; at = bytes.indexOf(10, at + 1))
            lines++;
        return lines;
    };
    const read = new GoldenCollector(file, 'jsonl');
    try {
        if (part === 0)
            readJsonl(withoutBom(bytes.subarray(0, split)), file, 1, read);
        else
            readJsonl(bytes.subarray(split), file, () => linesIn(0, split), read);
    }
    catch (error) {
        if (error instanceof InputError)
            return null;
        throw error;
    }
    if (part === 1) {
        const profile = headerProfileOf(withoutBom(bytes.subarray(0, split)), file);
        return {
            queries: read.queries,
            warnings: read.allWarnings(),
            fingerprint: '',
            linesAfter: 0,
            nextId: null,
            ...(profile !== undefined ? { profile } : {}),
        };
    }
    // A first half with no expectation: the whole file is read in one thread, which refuses it if the rest has none.
    if (!read.anyExpectation)
        return null;
    return {
        queries: read.queries,
        warnings: read.allWarnings(),
        fingerprint: goldenFingerprint(bytes),
        linesAfter: linesIn(split, bytes.length),
        nextId: firstIdAfter(bytes, split),
        ...(read.profile !== undefined ? { profile: read.profile } : {}),
    };
}
/** The id of the first query on the lines from `from` on, as the reader takes it; null when it cannot say. */
function firstIdAfter(bytes, from) {
    let id = null;
    try {
        forEachJsonlValue(bytes.subarray(from), '', 1, (value) => {
            id = isPlainObject(value) ? value.id : null;
            return false;
        });
    }
    catch {
        return null; // not JSON: the second half's reading reports it
    }
    return typeof id === 'string' || typeof id === 'number' || typeof id === 'boolean' ? String(id) : null;
}
/**
 * The metric profile of a JSON Lines file's header line (the first value), if it names a valid one (the first
 * half's reading reports a bad one).
 */
function headerProfileOf(bytes, file) {
    let profile;
    try {
        forEachJsonlValue(bytes, file, 1, (value, line) => {
            if (isHeader(value) && value.profile !== undefined)
                profile = profileOf(value.profile, `${file}:${line}`);
            return false;
        });
    }
    catch {
        return undefined;
    }
    return profile;
}
/** One half as a set of its own, for the thread that scores only its queries. */
const goldenSetOfHalf = (source, half) => ({
    source,
    queries: half.queries,
    warnings: half.warnings,
    fingerprint: '',
    ...(half.profile !== undefined ? { profile: half.profile } : {}),
});
function label(labels, value) {
    if (value === null || value.length > 64)
        return value;
    const known = labels.get(value);
    if (known !== undefined)
        return known;
    if (labels.size < 4096)
        labels.set(value, value);
    return value;
}
function labelList(labels, values) {
    if (values === null || values.length === 0)
        return EMPTY;
    for (let i = 0; i < values.length; i++)
        values[i] = label(labels, values[i]);
    return values;
}
/** The empty list of every query without the field: one frozen array (GoldenQuery is read-only data). */
const EMPTY = Object.freeze([]);
function str(obj, key, fail) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    if (typeof v === 'string')
        return v;
    if (typeof v === 'number' || typeof v === 'boolean')
        return String(v);
    return fail(key, `\`${key}\` must be a string`);
}
function strList(obj, key, fail) {
    const v = obj[key];
    if (v === undefined || v === null)
        return null;
    if (typeof v === 'string')
        return [v];
    if (!Array.isArray(v))
        return fail(key, `\`${key}\` must be a list of strings`);
    if (v.length === 0)
        return EMPTY;
    return mapPacked(v, (x) => typeof x === 'string' || typeof x === 'number' ? String(x) : fail(key, `\`${key}\` must hold only strings`));
}
function toGoldenQuery(obj, fail, labels) {
    const id = str(obj, 'id', fail);
    if (id === null || id === '')
        fail('id', 'missing `id`');
    const query = str(obj, 'query', fail);
    if (query === null)
        fail('query', 'missing `query`');
    const expectedDocIds = strList(obj, 'expected_doc_ids', fail);
    const answerableRaw = obj.answerable;
    if (answerableRaw !== undefined && answerableRaw !== null && typeof answerableRaw !== 'boolean')
        fail('answerable', '`answerable` must be true or false');
    // kebab's convention: an explicitly empty expected_doc_ids list means "should refuse".
    const answerable = typeof answerableRaw === 'boolean' ? answerableRaw : !(expectedDocIds !== null && expectedDocIds.length === 0);
    const goldSupports = goldSupportsOf(obj.gold_supports, fail);
    const rule = str(obj, 'recency_conflict_rule', fail);
    if (rule !== null && rule !== 'cite_newer' && rule !== 'cite_both' && rule !== 'acknowledge_both') {
        fail('recency_conflict_rule', '`recency_conflict_rule` must be cite_newer, cite_both or acknowledge_both');
    }
    const pending = obj.pending;
    if (pending !== undefined && pending !== null && typeof pending !== 'boolean')
        fail('pending', '`pending` must be true or false');
    const topK = obj.top_k ?? null;
    if (topK !== null && (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1))
        fail('top_k', `\`top_k\` must be a whole number >= 1, got ${inputText_valueText(topK)}`);
    return {
        id: id,
        query: query,
        lang: label(labels, str(obj, 'lang', fail)),
        expectedDocIds,
        expectedChunkIds: strList(obj, 'expected_chunk_ids', fail),
        mustContain: strList(obj, 'must_contain', fail) ?? EMPTY,
        forbidden: strList(obj, 'forbidden', fail) ?? EMPTY,
        difficulty: label(labels, str(obj, 'difficulty', fail)),
        group: label(labels, str(obj, 'group', fail)),
        category: label(labels, str(obj, 'category', fail)),
        tags: labelList(labels, strList(obj, 'tags', fail)),
        vault: label(labels, str(obj, 'vault', fail)),
        answerable,
        goldSupports,
        requiredSupportGroups: supportGroupsOf(obj.required_support_groups, goldSupports.length, fail),
        judgments: judgmentsOf(obj.judgments, fail),
        expectedLines: expectedLinesOf(obj.expected_lines, fail),
        goldClaim: str(obj, 'gold_claim', fail),
        recencyConflictRule: rule,
        pending: pending === true,
        topK: topK,
    };
}
function goldSupportsOf(raw, fail) {
    if (raw === undefined || raw === null)
        return EMPTY;
    if (!Array.isArray(raw))
        return fail('gold_supports', '`gold_supports` must be a list');
    return mapPacked(raw, (s, i) => {
        if (!isPlainObject(s))
            return fail('gold_supports', `\`gold_supports[${i}]\` must be a map`);
        if (typeof s.rel_path !== 'string' || s.rel_path === '')
            return fail('gold_supports', `\`gold_supports[${i}].rel_path\` is required`);
        const heading = s.heading_path;
        const snippets = s.snippets;
        return {
            relPath: s.rel_path,
            headingPath: heading === undefined || heading === null
                ? []
                : Array.isArray(heading)
                    ? mapPacked(heading, String)
                    : String(heading).split('>'),
            snippets: snippets === undefined || snippets === null
                ? []
                : Array.isArray(snippets)
                    ? mapPacked(snippets, String)
                    : [String(snippets)],
            newer: s.newer === true,
        };
    });
}
function supportGroupsOf(raw, supports, fail) {
    if (raw === undefined || raw === null)
        return EMPTY;
    if (!Array.isArray(raw))
        return fail('required_support_groups', '`required_support_groups` must be a list of lists of support indexes');
    return mapPacked(raw, (g) => mapPacked(Array.isArray(g) ? g : [g], (x) => {
        if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= supports) {
            return fail('required_support_groups', `support index ${String(x)} does not name one of the ${supports} gold_supports (0-based)`);
        }
        return x;
    }));
}
function judgmentsOf(raw, fail) {
    const judgments = new Map();
    if (raw === undefined || raw === null)
        return judgments;
    if (!isPlainObject(raw))
        return fail('judgments', '`judgments` must be a map of chunk_id or doc_id to grade');
    for (const [key, grade] of Object.entries(raw)) {
        if (typeof grade !== 'number' || !Number.isInteger(grade))
            fail('judgments', `grade of \`${inputText_oneLine(key)}\` must be an integer, got ${inputText_valueText(grade)}`);
        judgments.set(key, grade);
    }
    return judgments;
}
function expectedLinesOf(raw, fail) {
    if (raw === undefined || raw === null)
        return null;
    const file = isPlainObject(raw) ? raw.file : undefined;
    const range = isPlainObject(raw) ? raw.line_range : undefined;
    if (typeof file !== 'string' ||
        !Array.isArray(range) ||
        range.length !== 2 ||
        !range.every((n) => typeof n === 'number')) {
        return fail('expected_lines', '`expected_lines` must be `{file, line_range: [start, end]}`');
    }
    return { file, start: range[0], end: range[1] };
}

;// CONCATENATED MODULE: ./src/import/trec/trecFiles.ts
/**
 * TREC files -> a run and a golden set. qrels: `qid iter docno rel`; run: `qid Q0 docno rank score tag`.
 * Like trec_eval we ignore the rank column and order by score descending, ties by docno descending; the
 * stored ranks are then the positions in that order, so every metric sees trec_eval's ranking.
 */


/** Each non-blank line's whitespace-separated fields and its line number. */
function forEachLine(text, each) {
    text.split(/\r?\n/).forEach((line, i) => {
        const fields = line.trim().split(/\s+/);
        if (fields.length > 1 || fields[0] !== '')
            each(fields, i + 1);
    });
}
/** The golden queries of a qrels file: each query's judgments, its id standing for its text. */
function goldenItemsOf(text, source) {
    const qrels = new Map();
    forEachLine(text, (fields, line) => {
        if (fields.length !== 4) {
            throw new errors_InputError(`${source}:${line}: a qrels line needs 4 fields \`qid iter docno rel\`, got ${fields.length}`);
        }
        const [qid, , docno, relText] = fields;
        const rel = Number(relText);
        if (!Number.isInteger(rel))
            throw new errors_InputError(`${source}:${line}: relevance ${JSON.stringify(relText)} is not an integer`);
        let judgments = qrels.get(qid);
        if (!judgments)
            qrels.set(qid, (judgments = Object.create(null)));
        judgments[docno] = rel;
    });
    return [...qrels].map(([qid, judgments]) => ({ id: qid, query: qid, judgments: { ...judgments } }));
}
function parseTrecRun(text, source) {
    const byQuery = new Map();
    const seen = new Map();
    let tag = '';
    forEachLine(text, (fields, line) => {
        // trec_eval reads six fields and ignores anything after them (its test data has such lines).
        if (fields.length < 6) {
            throw new errors_InputError(`${source}:${line}: a run line needs 6 fields \`qid Q0 docno rank score tag\`, got ${fields.length}`);
        }
        const [qid, , docno, , scoreText, lineTag] = fields;
        const score = Number(scoreText);
        if (!Number.isFinite(score))
            throw new errors_InputError(`${source}:${line}: score ${JSON.stringify(scoreText)} is not a number`);
        tag ||= lineTag;
        let docs = seen.get(qid);
        if (!docs)
            seen.set(qid, (docs = new Set()));
        if (docs.has(docno))
            throw new errors_InputError(`${source}:${line}: document ${docno} appears twice for query ${qid}`);
        docs.add(docno);
        let list = byQuery.get(qid);
        if (!list)
            byQuery.set(qid, (list = []));
        list.push({ docno, score });
    });
    return { tag: tag || 'trec', byQuery };
}
/** trec_eval's order: score descending, then docno descending (strcmp). */
const trecOrder = (a, b) => a.score !== b.score ? b.score - a.score : a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0;
const hitOf = (l, i) => ({
    rank: i + 1,
    chunkId: l.docno,
    docId: l.docno,
    docPath: null,
    headingPath: [],
    snippet: null,
    score: l.score,
    citation: null,
    chunkerVersion: null,
});
/** One QueryResult per run query, hits in trec_eval's order with ranks 1..n. */
function resultsFromTrecRun(byQuery) {
    return [...byQuery].map(([qid, list]) => ({
        queryId: qid,
        query: qid,
        mode: null,
        hits: [...list].sort(trecOrder).map(hitOf),
        answer: null,
        elapsedMs: null,
        error: null,
        status: 'ok',
        abstained: null,
        timingsMs: {},
        costUsd: null,
        folderMode: null,
        selectedFolders: [],
        judge: null,
    }));
}
/** A run and its golden set from TREC files; `goldenItems`: the golden set as `evalverdict import trec` writes it. */
function runFromTrec(qrelsText, qrelsSource, runText, runSource, createdAt) {
    const goldenItems = goldenItemsOf(qrelsText, qrelsSource);
    const { tag, byQuery } = parseTrecRun(runText, runSource);
    const run = {
        runId: tag,
        suite: 'trec',
        commitHash: null,
        createdAt,
        config: { source: 'trec', run_file: runSource },
        chunkerVersion: null,
        embeddingModel: null,
        indexVersion: null,
        judgeModel: null,
        judgePromptVersion: null,
    };
    return {
        goldenItems,
        golden: goldenSetOfItems(goldenItems, qrelsSource),
        run: { source: runSource, run, results: resultsFromTrecRun(byQuery), chunks: null, documents: null },
    };
}

;// CONCATENATED MODULE: ./schemas/golden-set.schema.json
const golden_set_schema_namespaceObject = /*#__PURE__*/JSON.parse('{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"golden-set.schema.json","title":"EvalVerdict golden set (YAML)","description":"A YAML golden set: a list of queries, or a map whose `queries` key holds them beside the header keys (docs/golden-sets.md). Put `# yaml-language-server: $schema=<path to this file>` on its first line.","anyOf":[{"type":"array","items":{"$ref":"golden-query.schema.json#/$defs/query"}},{"type":"object","additionalProperties":false,"required":["queries"],"properties":{"queries":{"type":"array","items":{"$ref":"golden-query.schema.json#/$defs/query"}},"schema_version":{"type":["string","number"]},"name":{"type":"string"},"description":{"type":"string"},"profile":{"enum":["evalverdict","wfgy","paperbot"]}}}]}');
;// CONCATENATED MODULE: ./src/validate/schema.ts
/**
 * The published JSON Schemas (schemas/*.schema.json), bundled into the build, and the small part of JSON Schema
 * they use, checked by hand: EvalVerdict's key lists and did-you-mean come from these files, so the files editors
 * read and the checks `evalverdict validate` runs cannot drift apart.
 */






/** Each published schema by its file name (its `$id`), for `$ref`s between them. */
const SCHEMAS = {
    'result.schema.json': result_schema_namespaceObject,
    'golden-query.schema.json': golden_query_schema_namespaceObject,
    'golden-set.schema.json': golden_set_schema_namespaceObject,
    'gate-config.schema.json': gate_config_schema_namespaceObject,
};
/** `value` checked against `schema` (default: the root of `file`); every error, in document order. */
function checkAgainstSchema(value, file, schema) {
    const errors = [];
    walk(value, schema ?? SCHEMAS[file], file, ROOT, errors);
    return errors;
}
const ROOT = { parent: null, step: '' };
function pathOf(at, indexes) {
    if (at.parent === null)
        return '';
    const head = pathOf(at.parent, indexes);
    if (typeof at.step === 'number')
        return `${head}[${indexes ? at.step : ''}]`;
    return head === '' ? at.step : `${head}.${at.step}`;
}
function errorAt(at, fields) {
    return { path: pathOf(at, true), pattern: pathOf(at, false), ...fields };
}
/** `$ref` targets resolved once: every hit of a run follows the same few. */
const schema_resolved = new Map();
/** `$ref` as the published files write it: `#/$defs/x` in the same file, `other.schema.json#/$defs/x` in another. */
function resolveRef(ref, file) {
    const cacheKey = `${file}\u0000${ref}`;
    const known = schema_resolved.get(cacheKey);
    if (known !== undefined)
        return known;
    const [target, pointer = ''] = ref.split('#');
    const inFile = target === '' ? file : target;
    let schema = SCHEMAS[inFile];
    for (const part of pointer.split('/').filter((p) => p !== ''))
        schema = schema?.[part];
    if (schema === undefined)
        throw new Error(`schemas/${file}: \`$ref\` ${ref} names nothing`);
    const found = { schema: schema, file: inFile };
    schema_resolved.set(cacheKey, found);
    return found;
}
function walk(value, schema, file, at, errors) {
    if (schema.$ref !== undefined) {
        const target = resolveRef(schema.$ref, file);
        walk(value, target.schema, target.file, at, errors);
        return;
    }
    if (schema.anyOf !== undefined) {
        for (const e of bestBranch(value, schema.anyOf, file, at))
            errors.push(e);
        return;
    }
    const wrong = wrongValue(value, schema);
    if (wrong !== null) {
        errors.push(errorAt(at, { problem: 'wrong-value', suggestion: '', detail: `${wrong}, got ${inputText_valueText(value)}` }));
        return;
    }
    if (Array.isArray(value) && schema.items !== undefined) {
        for (let i = 0; i < value.length; i++)
            walk(value[i], schema.items, file, { parent: at, step: i }, errors);
    }
    else if (schema_isPlainObject(value)) {
        walkObject(value, schema, file, at, errors);
    }
}
function walkObject(value, schema, file, at, errors) {
    const known = schema.properties ?? {};
    for (const key of schema.required ?? []) {
        if (value[key] === undefined)
            errors.push(errorAt({ parent: at, step: key }, { problem: 'missing-key', key, suggestion: '', detail: `\`${key}\` is missing` }));
    }
    for (const key in value) {
        const item = value[key];
        const own = Object.hasOwn(known, key) ? known[key] : undefined;
        if (own !== undefined)
            walk(item, own, file, { parent: at, step: key }, errors);
        else if (schema.additionalProperties === false)
            errors.push(errorAt({ parent: at, step: key }, unknownKey(key, known)));
        else if (schema_isPlainObject(schema.additionalProperties))
            walk(item, schema.additionalProperties, file, { parent: at, step: key }, errors);
    }
}
/**
 * The errors of the branch of an `anyOf` the value was meant for: none when a branch fits, else those of the
 * branch whose type fits (an object meant as `answer`, not as `null`), else the first branch's.
 */
function bestBranch(value, branches, file, at) {
    // Only the branches whose type admits the value are walked: a failed branch's errors cost their messages.
    const admitting = branches.filter((branch) => admitsType(value, branch, file));
    if (admitting.length === 0) {
        const found = [];
        walk(value, branches[0], file, at, found);
        return found;
    }
    let best = null;
    for (const branch of admitting) {
        const found = [];
        walk(value, branch, file, at, found);
        if (found.length === 0)
            return found;
        if (best === null || found.length < best.length)
            best = found;
    }
    return best;
}
/** Whether `branch` (through its `$ref`) has no `type` or one that `value` has. */
function admitsType(value, branch, file) {
    const schema = branch.$ref === undefined ? branch : resolveRef(branch.$ref, file).schema;
    if (schema.type === undefined)
        return true;
    return typeof schema.type === 'string' ? hasType(value, schema.type) : schema.type.some((t) => hasType(value, t));
}
/** What `value` should have been, when its type, enum or bounds do not fit `schema`; null when they fit. */
function wrongValue(value, schema) {
    if (schema.enum !== undefined && !schema.enum.includes(value))
        return `must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
    const type = schema.type;
    if (type !== undefined && !(typeof type === 'string' ? hasType(value, type) : type.some((t) => hasType(value, t))))
        return `must be ${(typeof type === 'string' ? [type] : type).map(typeName).join(' or ')}`;
    if (typeof value === 'number') {
        if (schema.minimum !== undefined && value < schema.minimum)
            return `must be >= ${schema.minimum}`;
        if (schema.maximum !== undefined && value > schema.maximum)
            return `must be <= ${schema.maximum}`;
        if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
            return `must be > ${schema.exclusiveMinimum}`;
        if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
            return `must be < ${schema.exclusiveMaximum}`;
    }
    if (typeof value === 'string' && schema.minLength !== undefined && value.length < schema.minLength)
        return 'must not be empty';
    if (schema_isPlainObject(value)) {
        const n = Object.keys(value).length;
        if (schema.minProperties !== undefined && n < schema.minProperties)
            return `must have at least ${schema.minProperties} key(s)`;
        if (schema.maxProperties !== undefined && n > schema.maxProperties)
            return `must have at most ${schema.maxProperties} key(s)`;
    }
    return null;
}
function hasType(value, type) {
    switch (type) {
        case 'null':
            return value === null;
        case 'string':
            return typeof value === 'string';
        case 'number':
            return typeof value === 'number' && Number.isFinite(value);
        case 'integer':
            return typeof value === 'number' && Number.isInteger(value);
        case 'boolean':
            return typeof value === 'boolean';
        case 'array':
            return Array.isArray(value);
        case 'object':
            return schema_isPlainObject(value);
        default:
            throw new Error(`schemas: type \`${type}\` is not one this checker knows`);
    }
}
function typeName(type) {
    return type === 'integer' ? 'an integer' : type === 'array' ? 'a list' : type === 'null' ? 'null' : `a ${type}`;
}
function schema_isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/**
 * The key meant, by unknown key, for each object schema met: a runner's typo repeats in every hit of a run, and each
 * look-up costs an edit distance to every known key.
 */
const meantByPlace = new WeakMap();
const MEANT_CACHE_KEYS = 1000;
/** An unknown key's error fields: the key meant, when there is one, as data and in words. */
function unknownKey(key, known) {
    let place = meantByPlace.get(known);
    if (place === undefined)
        meantByPlace.set(known, (place = new Map()));
    let meant = place.get(key);
    if (meant === undefined) {
        meant = meantKey(key, known);
        // A different key in every hit (a hostile run) would grow the cache without end: the first ones are kept.
        if (place.size < MEANT_CACHE_KEYS)
            place.set(key, meant);
    }
    const fields = { problem: 'unknown-key', key, detail: `unknown key \`${key}\`` };
    return meant === null
        ? { ...fields, suggestion: '' }
        : { ...fields, suggestion: `; did you mean \`${meant}\`?`, meant };
}
/** `; did you mean \`x\`?` for the key `key` was most likely meant as (meantKey), or ''. */
function didYouMean(key, properties) {
    const meant = meantKey(key, properties);
    return meant === null ? '' : `; did you mean \`${meant}\`?`;
}
/**
 * The known key `key` was most likely meant as: a key the schema lists it as a common mistake for (`x-misspellings`:
 * `hits` for `hits_top_k`), a close spelling (edit distance), or a key it is the start of (`hits` -> `hits_top_k`);
 * null when none is.
 */
function meantKey(key, properties) {
    const names = Object.keys(properties);
    const lower = key.toLowerCase();
    const listed = names.find((name) => properties[name]['x-misspellings']?.includes(lower));
    if (listed !== undefined)
        return listed;
    const close = closest(key, names);
    if (close !== null)
        return close;
    const extended = names
        .filter((name) => lower.length >= 3 && (name.startsWith(`${lower}_`) || name.endsWith(`_${lower}`)))
        .sort((a, b) => editDistance(lower, a) - editDistance(lower, b));
    return extended[0] ?? null;
}
/** The candidate nearest `word` within suggest's distance (src/suggest.ts), or null: suggest's choice as data. */
function closest(word, candidates) {
    let best = null;
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const d = editDistance(word, candidate);
        if (d < bestDistance) {
            best = candidate;
            bestDistance = d;
        }
    }
    return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}
/** The property names of an object schema (a `$defs` entry or the root) of `file`, e.g. the keys of a hit. */
function keysOf(file, def) {
    const schema = def === undefined ? SCHEMAS[file] : resolveRef(`#/$defs/${def}`, file).schema;
    return Object.keys(schema.properties ?? {});
}

;// CONCATENATED MODULE: ./src/write/outputFiles.ts
/**
 * Writing the files a command is asked for (run databases, reports, golden sets): each through a temporary sibling
 * and a rename, so nothing is ever half-written, and a path that cannot be written as the user's mistake
 * (`PATH: cannot write (reason)`, an InputError: exit 2), never a stack trace.
 */




/** Why `file` cannot be written, in words, from the error of writing it (or its temporary sibling). */
function reason(file, error) {
    const code = error.code;
    switch (code) {
        case 'ENOENT':
            return `no such directory: ${(0,external_node_path_namespaceObject.dirname)(file)}`;
        case 'ENOTDIR':
            return 'a parent of it is not a directory';
        case 'EISDIR':
            return 'it is a directory';
        case 'EACCES':
        case 'EPERM':
            return 'permission denied';
        case 'EROFS':
            return 'read-only file system';
        case 'ENOSPC':
            return 'no space left on device';
        case 'EDQUOT':
            return 'disk quota exceeded';
        case 'ENAMETOOLONG':
            return 'the name is too long';
        default:
            return code ?? (error instanceof Error ? error.message : String(error));
    }
}
function cannotWrite(file, error) {
    return new errors_InputError(`${file}: cannot write (${reason(file, error)})`);
}
/** Bytes written by one writeSync at most: writeFileSync refuses 2 GiB and more (ERR_OUT_OF_RANGE); a run database may be larger. */
const WRITE_CHUNK = 1 << 30;
/**
 * `bytes` as the whole content of a new file, in pieces of at most `chunk` bytes. The file is created exclusively
 * (a file or link put there meanwhile is not followed) with `mode` from its first byte: a private database's bytes
 * are never readable by others, not even while they are written.
 */
function writeWhole(file, bytes, chunk = WRITE_CHUNK, mode = 0o600) {
    const fd = (0,external_node_fs_namespaceObject.openSync)(file, 'wx', mode);
    try {
        writeAll(fd, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, chunk);
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
function writeAll(fd, bytes, chunk = WRITE_CHUNK) {
    for (let at = 0; at < bytes.length;) {
        try {
            at += (0,external_node_fs_namespaceObject.writeSync)(fd, bytes, at, Math.min(chunk, bytes.length - at));
        }
        catch (error) {
            // A pipe Node made non-blocking (stdout) is full until its reader reads: wait a little and go on.
            if (error.code !== 'EAGAIN')
                throw error;
            Atomics.wait(PAUSE, 0, 0, 2);
        }
    }
}
const PAUSE = new Int32Array(new SharedArrayBuffer(4));
/** The standard stream a path names (`/dev/stdout`, `/dev/fd/2`, `/proc/self/fd/1`), or null. */
function standardStream(file) {
    const m = /^\/(?:dev\/(?:std(out|err)|fd\/([12]))|proc\/(?:self|\d+)\/fd\/([12]))$/.exec((0,external_node_path_namespaceObject.resolve)(file));
    if (m === null)
        return null;
    if (m[3] !== undefined &&
        !(0,external_node_path_namespaceObject.resolve)(file).startsWith('/proc/self/') &&
        !(0,external_node_path_namespaceObject.resolve)(file).startsWith(`/proc/${process.pid}/`)) {
        return null;
    }
    return m[1] === 'out' || m[2] === '1' || m[3] === '1' ? 1 : 2;
}
/**
 * Whether `file` is written through rather than replaced: a standard stream (`--json /dev/stdout`, into a pipe or
 * a redirect), or an existing target that is no regular file (a device such as /dev/null or /dev/full, a FIFO). A
 * rename would put a regular file in a device's place, or over the file a redirect writes to.
 */
function writtenThrough(file) {
    if (standardStream(file) !== null)
        return true;
    try {
        const stats = (0,external_node_fs_namespaceObject.statSync)(file);
        return !stats.isFile() && !stats.isDirectory();
    }
    catch {
        return false;
    }
}
/**
 * Writes `bytes` into a standard stream or a special file (no temporary file, no rename). Text goes out as the
 * CLI's own output does, inert to the Actions runner (`--json /dev/stdout` lands in a workflow's log); bytes as
 * they are.
 */
function writeThrough(file, bytes) {
    const data = typeof bytes === 'string' ? Buffer.from(inertLines(bytes)) : bytes;
    const stream = standardStream(file);
    if (stream !== null) {
        writeAll(stream, data);
        return;
    }
    // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of waiting for one.
    const fd = (0,external_node_fs_namespaceObject.openSync)(file, external_node_fs_namespaceObject.constants.O_WRONLY | external_node_fs_namespaceObject.constants.O_NONBLOCK);
    try {
        writeAll(fd, data);
    }
    finally {
        (0,external_node_fs_namespaceObject.closeSync)(fd);
    }
}
/**
 * Writes every file or none: first each to a temporary sibling (any failure removes them all and throws
 * `PATH: cannot write (reason)`), then each temporary file renamed over its target. A target that exists is checked
 * first: a directory, or a file that may not be written (read-only, which a rename would replace all the same), is
 * refused before anything is written. A standard stream or a device is written through (writtenThrough), after
 * the temporary files are written and before they are renamed.
 */
function writeOutputFiles(files) {
    const written = [];
    const through = files.filter(([named]) => writtenThrough(named));
    let file = '';
    watchSignals();
    try {
        for (const [named, bytes] of files) {
            file = named;
            if (through.some(([t]) => t === named))
                continue;
            // An existing file is replaced where it is (a symbolic link keeps pointing at it) and keeps its permissions
            // (a private database stays private): the rename would otherwise put a new file with the umask's in its place.
            const was = checkTarget(named);
            const target = was !== null ? (0,external_node_fs_namespaceObject.realpathSync)(named) : named;
            sweepTemporaries((0,external_node_path_namespaceObject.dirname)(target));
            const tmp = temporaryName(target);
            written.push([tmp, target, named]);
            pending.add(tmp);
            writeWhole(tmp, bytes, WRITE_CHUNK, was !== null ? was.mode & 0o777 : 0o600);
            if (was !== null) {
                // Its owner too, where this process may give it (root rewriting a user's database); elsewhere chown fails,
                // and the file is the writer's own as any new file is.
                try {
                    if (was.uid !== process.getuid?.() || was.gid !== process.getgid?.())
                        (0,external_node_fs_namespaceObject.chownSync)(tmp, was.uid, was.gid);
                }
                catch {
                    // not permitted: keep the writer's
                }
                (0,external_node_fs_namespaceObject.chmodSync)(tmp, was.mode & 0o7777);
            }
        }
        for (const [named, bytes] of through) {
            file = named;
            writeThrough(named, bytes);
        }
        while (written.length > 0) {
            const [tmp, target, named] = written[0];
            file = named;
            (0,external_node_fs_namespaceObject.renameSync)(tmp, target);
            pending.delete(tmp);
            written.shift();
        }
    }
    catch (error) {
        for (const [tmp] of written) {
            try {
                (0,external_node_fs_namespaceObject.unlinkSync)(tmp);
            }
            catch {
                /* already gone */
            }
            pending.delete(tmp);
        }
        throw cannotWrite(file, error);
    }
}
/** Temporary files being written now: removed if SIGINT or SIGTERM ends the process. */
const pending = new Set();
const SIGNALS = ['SIGINT', 'SIGTERM'];
let watching = false;
function onSignal(signal) {
    for (const tmp of pending) {
        try {
            (0,external_node_fs_namespaceObject.unlinkSync)(tmp);
        }
        catch {
            /* already gone */
        }
    }
    pending.clear();
    for (const s of SIGNALS)
        process.removeListener(s, onSignal);
    // Ends as the signal would have: its default action, now that no listener of ours is left.
    if (process.listenerCount(signal) === 0)
        process.kill(process.pid, signal);
}
/**
 * From the first write on, SIGINT and SIGTERM remove the temporary files before the process ends as the signal
 * would end it. The write is synchronous, so a signal that comes during it is handled once it returns; the
 * listeners stay (removing them then would drop that signal), and do nothing else.
 */
function watchSignals() {
    if (watching)
        return;
    watching = true;
    for (const s of SIGNALS)
        process.on(s, onSignal);
}
/** When this process started (ms since the epoch): temporary files older than that are no one's now. */
const processStart = Date.now() - process.uptime() * 1000;
const TEMPORARY = /^\.evalverdict-(\d+)-\d+\.tmp$/;
/**
 * Removes temporary files an earlier run left in `dir` (killed with SIGKILL, or the machine stopped): EvalVerdict's own
 * name pattern, last changed before this process started, and written by a process that is gone.
 */
function sweepTemporaries(dir) {
    let names;
    try {
        names = (0,external_node_fs_namespaceObject.readdirSync)(dir);
    }
    catch {
        return;
    }
    for (const name of names) {
        const m = TEMPORARY.exec(name);
        if (m === null)
            continue;
        const path = (0,external_node_path_namespaceObject.join)(dir, name);
        const pid = Number(m[1]);
        try {
            const stats = (0,external_node_fs_namespaceObject.lstatSync)(path);
            // Our own pid on an older file: a process before us had it.
            if (!stats.isFile() || stats.mtimeMs >= processStart || (pid !== process.pid && isAlive(pid)))
                continue;
            (0,external_node_fs_namespaceObject.unlinkSync)(path);
        }
        catch {
            /* gone already, or not ours to remove */
        }
    }
}
function isAlive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/** One file, written atomically; `PATH: cannot write (reason)` when it cannot be. */
function writeFileAtomically(file, bytes) {
    writeOutputFiles([[file, bytes]]);
}
/**
 * Output files that must not exist yet (a command that creates files refuses to replace one unless told to):
 * `PATH: already exists (hint)` for the first that does.
 */
function refuseExisting(files, hint) {
    for (const file of files) {
        if (existsSync(file))
            throw new InputError(`${file}: already exists (${hint})`);
    }
}
/**
 * The target's status (that of the file a symbolic link points at), or null when there is none; an existing one
 * must be a file this process may write (throws the errno error that says why not).
 */
function checkTarget(file) {
    if (!(0,external_node_fs_namespaceObject.existsSync)(file))
        return null;
    const stats = (0,external_node_fs_namespaceObject.statSync)(file);
    if (stats.isDirectory())
        throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
    (0,external_node_fs_namespaceObject.accessSync)(file, external_node_fs_namespaceObject.constants.W_OK);
    return stats;
}
/** Refuses two output flags naming one file (`--a and --b name the same file PATH`); unset flags are skipped. */
function refuseSameOutput(outputs) {
    const seen = new Map();
    for (const [flag, file] of outputs) {
        if (file === undefined)
            continue;
        const where = canonicalPath(file);
        const other = seen.get(where);
        if (other !== undefined)
            throw new InputError(`${other} and ${flag} name the same file ${file}`);
        seen.set(where, flag);
    }
}
/**
 * The file a path is written to (writeOutputFiles replaces what a symbolic link points at): its real path, or, for
 * a file not there yet, its folder's real path and its name.
 */
function canonicalPath(file) {
    try {
        return realpathSync(file);
    }
    catch {
        try {
            return join(realpathSync(dirname(resolve(file))), basename(file));
        }
        catch {
            return resolve(file);
        }
    }
}
let temporaries = 0;
/** A temporary sibling of `file` (same directory, so the rename is atomic), short whatever the length of its name. */
function temporaryName(file) {
    return (0,external_node_path_namespaceObject.join)((0,external_node_path_namespaceObject.dirname)(file), `.evalverdict-${process.pid}-${++temporaries}.tmp`);
}
/** The file at `path` as the system knows it (device and inode, after symbolic links), or null when there is none. */
function fileIdentity(path) {
    try {
        const stats = statSync(path);
        return `${stats.dev}:${stats.ino}`;
    }
    catch {
        return null;
    }
}
/**
 * Refuses an output path that is one of the inputs (the same path after symbolic links, or the same file by device
 * and inode: a hard link), before anything is read or written: `--json c.sqlite` would replace the candidate
 * database with the report. Unset outputs and inputs are skipped.
 */
function refuseOutputOverInput(outputs, inputs) {
    const known = inputs
        .filter((input) => typeof input[1] === 'string' && input[1] !== '')
        .map(([what, file]) => ({ what, file, path: canonicalPath(file), id: fileIdentity(file) }));
    for (const [flag, file] of outputs) {
        if (typeof file !== 'string' || file === '')
            continue;
        const path = canonicalPath(file);
        const id = fileIdentity(file);
        const input = known.find((k) => k.path === path || (id !== null && k.id === id));
        if (input !== undefined) {
            throw new InputError(`${flag} ${file} is the ${input.what} ${input.file}: an output never replaces an input; name another file`);
        }
    }
}

;// CONCATENATED MODULE: ./src/write/runWriter.ts
/**
 * A run database written from a JavaScript eval runner (the library's `RunWriter`): the same format and checks as
 * the Python writer in clients/python/, so a misspelt key or a hit that can match nothing fails where it is written,
 * not later as a quality regression. The results are kept in memory (sql.js) and the file is replaced atomically
 * on `close`.
 */








class RunWriter {
    db;
    path;
    runId;
    ids = new Set();
    constructor(db, path, runId) {
        this.db = db;
        this.path = path;
        this.runId = runId;
    }
    /** A writer of run `options.runId` into `path`: a new file, or one whose other runs are kept. */
    static async create(path, options) {
        const SQL = await sqlite_loadSqlJs();
        const db = (0,external_node_fs_namespaceObject.existsSync)(path) ? new SQL.Database((0,external_node_fs_namespaceObject.readFileSync)(path)) : new SQL.Database();
        try {
            // The cap is for databases read from strangers (openRunDatabase); this one is the runner's own.
            db.exec('PRAGMA hard_heap_limit = 0');
            db.exec(RUN_DATABASE_DDL);
            const taken = db.exec('SELECT 1 FROM eval_runs WHERE run_id = ?', [options.runId]);
            if (taken.length > 0)
                throw new errors_InputError(`${path}: already holds a run \`${inputText_oneLine(options.runId)}\``);
            db.exec('BEGIN');
            db.run('INSERT INTO eval_runs (run_id, suite, config_snapshot_json, aggregate_json, commit_hash, created_at) ' +
                "VALUES (?, ?, ?, '{}', ?, ?)", [
                options.runId,
                options.suite,
                JSON.stringify(options.config ?? {}),
                options.commitHash ?? null,
                options.createdAt ?? nowIso(),
            ]);
        }
        catch (error) {
            db.close();
            throw error;
        }
        return new RunWriter(db, path, options.runId);
    }
    /** One query's result, checked against schemas/result.schema.json before it is written. */
    addResult(queryId, input) {
        if (this.ids.has(queryId))
            throw new errors_InputError(`query \`${inputText_oneLine(queryId)}\` is written twice`);
        const { hits = [], answer = null, ...fields } = input;
        const result = {
            query_id: queryId,
            hits_top_k: hits.map((hit, i) => ({ rank: i + 1, ...hit })),
            answer: typeof answer === 'string' ? { answer } : answer,
            ...fields,
        };
        const where = `query \`${inputText_oneLine(queryId)}\``;
        const wrong = checkAgainstSchema(result, 'result.schema.json')[0];
        if (wrong !== undefined)
            throw new errors_InputError(`${where}: \`${wrong.path}\`: ${wrong.detail}${wrong.suggestion}`);
        const hitsOut = result.hits_top_k;
        const blind = hitsOut.findIndex((h) => !['chunk_id', 'doc_id', 'doc_path', 'rel_path'].some((k) => runWriter_present(h[k])));
        if (blind !== -1)
            throw new errors_InputError(`${where}: hit ${blind} has no chunk_id, doc_id or doc_path: it could match nothing`);
        const ranks = hitsOut.map((h) => h.rank).sort((a, b) => a - b);
        if (ranks.some((rank, i) => rank !== i + 1))
            throw new errors_InputError(`${where}: ranks ${ranks.join(', ')} are not 1..${ranks.length}`);
        this.db.run('INSERT INTO eval_query_results (run_id, query_id, result_json) VALUES (?, ?, ?)', [
            this.runId,
            queryId,
            JSON.stringify(result),
        ]);
        this.ids.add(queryId);
    }
    /** Commits and writes the file (atomically); a run without results is refused and nothing is written. */
    close() {
        try {
            if (this.ids.size === 0) {
                this.db.exec('ROLLBACK');
                throw new errors_InputError(`run \`${inputText_oneLine(this.runId)}\` has no results: nothing was written`);
            }
            this.db.exec('COMMIT');
            writeFileAtomically(this.path, this.db.export());
        }
        finally {
            this.db.close();
        }
    }
}
function runWriter_present(value) {
    return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

;// CONCATENATED MODULE: ./src/validate/findings.ts
/**
 * What is wrong with a run database's results against the documented format (docs/run-database.md,
 * schemas/result.schema.json): the checks behind `evalverdict validate` and the warnings of compare and aggregate.
 * Pure: rows go in one at a time, findings come out as data; the entries word and print them.
 */






function goldenViewOf(golden) {
    return {
        source: golden.source,
        queries: golden.queries,
        expectsHits: golden.queries.some(expectsHit),
        pathsMatch: golden.queries.some((q) => q.goldSupports.length > 0),
    };
}
/** The checks of one row at a time, whose finding names its first query and counts the others. */
const ROW_CHECKS = new Set([
    'invalid-json',
    'unknown-key',
    'wrong-value',
    'missing-key',
    'unmatchable-hit',
    'rank-order',
    'query-id-mismatch',
]);
/** How many ids a golden-set finding names before `and N more`. */
const FIRST_IDS = 5;
/** Collects the findings of one run's rows, then of the run as a whole (finish). */
class RunChecker {
    source;
    run;
    byKind = new Map();
    /** The key meant, by finding, for the runner mistakes (an unmatchable hit's: null). */
    mistaken = new Map();
    /** The query each finding was last counted for: a mistake in ten hits of one query counts that query once. */
    lastCounted = new Map();
    seen = new Set();
    duplicates = [];
    rows = 0;
    hits = 0;
    /** Hits with an id (chunk_id or doc_id); with a path only, counted apart (they match gold_supports alone). */
    hitsWithId = 0;
    hitsWithPathOnly = 0;
    /** Results with an answer object, and whether some result wrote its hits under another key (`hits`). */
    answers = 0;
    misnamedHits = false;
    constructor(source, run) {
        this.source = source;
        this.run = run;
    }
    /** One row of `eval_query_results`: its query_id and the `result_json` text (or whatever the column held). */
    addRow(queryId, resultJson) {
        this.countRow(queryId);
        const value = this.parsedRow(queryId, resultJson);
        if (value === null)
            return;
        for (const error of checkAgainstSchema(value, 'result.schema.json')) {
            if (error.problem === 'unknown-key' && error.path === error.key && error.suggestion.includes('`hits_top_k`'))
                this.misnamedHits = true;
            this.noteSchema(queryId, error);
        }
        this.checkResult(queryId, value);
    }
    /**
     * The row's `result_json` as an object, or null with an invalid-json finding. A text past compare's bounds on a JSON
     * cell (src/load/json.ts) is that finding in compare's words, found before JSON.parse builds what the text holds.
     */
    parsedRow(queryId, resultJson) {
        if (typeof resultJson !== 'string') {
            this.note('invalid-json', queryId, null, '`result_json` must be a JSON object, got no text');
            return null;
        }
        const where = 'column `result_json`';
        const pastBounds = refusal(() => refuseJsonPastBounds(resultJson, JSON_VALUE_BOUNDS, where, 'in one value'));
        if (pastBounds !== null) {
            this.note('invalid-json', queryId, 'result_json', pastBounds);
            return null;
        }
        let value;
        try {
            value = JSON.parse(resultJson);
        }
        catch (error) {
            this.note('invalid-json', queryId, null, `\`result_json\` is not JSON (${error.message})`);
            return null;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            const got = Array.isArray(value) ? 'a list' : String(value);
            this.note('invalid-json', queryId, null, `\`result_json\` must be a JSON object, got ${inputText_oneLine(got)}`);
            return null;
        }
        const tooDeep = refusal(() => refuseTooDeepValue(resultJson, value, where));
        if (tooDeep !== null) {
            this.note('invalid-json', queryId, 'result_json', tooDeep);
            return null;
        }
        return value;
    }
    /**
     * A row whose `result_json` is past the length EvalVerdict reads (never fetched): counted as read, and an invalid-json
     * finding worded by `text` (the reader's own words), apart from the texts that are not JSON.
     */
    addOversizedRow(queryId, text) {
        this.countRow(queryId);
        this.note('invalid-json', queryId, 'result_json', text);
    }
    countRow(queryId) {
        this.rows++;
        if (this.seen.has(queryId))
            this.duplicates.push(queryId);
        else
            this.seen.add(queryId);
    }
    checkResult(queryId, result) {
        const written = result.query_id;
        if ((typeof written === 'string' || typeof written === 'number') && String(written) !== queryId)
            this.note('query-id-mismatch', queryId, 'query_id', `\`result_json.query_id\` is \`${inputText_oneLine(String(written))}\`, the row's \`query_id\` is \`${inputText_oneLine(queryId)}\` (the row's is the one scored)`);
        if (typeof result.answer === 'object' && result.answer !== null)
            this.answers++;
        const hits = Array.isArray(result.hits_top_k) ? result.hits_top_k : [];
        const ranks = [];
        let unmatchable = 0;
        for (const hit of hits) {
            if (typeof hit !== 'object' || hit === null)
                continue;
            const h = hit;
            this.hits++;
            if (typeof h.rank === 'number' && Number.isInteger(h.rank) && h.rank >= 1)
                ranks.push(h.rank);
            if (present(h.chunk_id) || present(h.doc_id))
                this.hitsWithId++;
            else if (present(h.doc_path) || present(h.rel_path))
                this.hitsWithPathOnly++;
            else
                unmatchable++;
        }
        if (unmatchable > 0)
            this.note('unmatchable-hit', queryId, 'hits_top_k[]', `${unmatchable === 1 ? 'a hit has' : `${unmatchable} hits have`} no \`chunk_id\`, \`doc_id\` or \`doc_path\`: ${unmatchable === 1 ? 'it' : 'they'} can match nothing in the golden set`);
        if (ranks.length === hits.length && !isOneToN(ranks)) {
            const shown = [...ranks].sort((a, b) => a - b).slice(0, 10);
            this.note('rank-order', queryId, 'hits_top_k[].rank', `the ranks are ${shown.join(', ')}${ranks.length > 10 ? ', …' : ''}, not 1..${ranks.length}: a gap or a repeat moves every rank-based metric`);
        }
    }
    noteSchema(queryId, error) {
        const field = error.pattern;
        const text = error.problem === 'unknown-key'
            ? `unknown key \`${inputText_oneLine(field)}\` in \`result_json\` (ignored)${error.suggestion}`
            : error.problem === 'missing-key'
                ? `\`${inputText_oneLine(field)}\` is missing`
                : `\`${inputText_oneLine(error.path)}\` ${error.detail}`;
        // One mistake in every row is one finding: keyed by its field (and, for a wrong value, not by the value).
        const finding = this.note(error.problem, queryId, field, text);
        if (error.meant !== undefined && !this.mistaken.has(finding))
            this.mistaken.set(finding, error.meant);
    }
    note(check, queryId, field, text) {
        const key = `${check}\u0000${field ?? ''}`;
        const known = this.byKind.get(key);
        if (known !== undefined) {
            if (this.lastCounted.get(key) !== queryId)
                known.count++;
            this.lastCounted.set(key, queryId);
            return known;
        }
        this.lastCounted.set(key, queryId);
        const found = {
            kind: 'run-format',
            check,
            source: this.source,
            run: this.run,
            query: queryId,
            field,
            count: 1,
            text,
            blocking: false,
        };
        this.byKind.set(key, found);
        if (check === 'unmatchable-hit')
            this.mistaken.set(found, null);
        return found;
    }
    /** Whether a row read so far shows a runner mistake (RunnerMistake): a misspelt key, or a hit that matches nothing. */
    hasRunnerMistake() {
        return this.mistaken.size > 0;
    }
    /** The runner mistakes of the rows read, in the order first seen, their counts as they stand. */
    runnerMistakes() {
        return [...this.byKind.values()]
            .filter((f) => this.mistaken.has(f))
            .map((finding) => ({ finding, meant: this.mistaken.get(finding) }));
    }
    /** Rows read so far. */
    get rowCount() {
        return this.rows;
    }
    /** Whether some hit read so far can match `golden`: one with an id, or with a path when it has gold_supports. */
    hasUsableHit(golden) {
        if (this.hitsWithId > 0)
            return true;
        return this.hitsWithPathOnly > 0 && (golden === null || golden.pathsMatch);
    }
    /**
     * Every finding, the run-level ones (empty run, duplicates, golden set) after the row-level ones; when not
     * `complete`, the row-level ones say of how many results they count (`of`).
     */
    finish(golden, complete = true) {
        const found = [...this.byKind.values()].map((f) => (complete ? f : { ...f, of: this.rows }));
        const run = (check, text, count, query, blocking = false) => found.push({
            kind: 'run-format',
            check,
            source: this.source,
            run: this.run,
            query,
            field: null,
            count,
            text,
            blocking,
        });
        if (this.rows === 0)
            run('empty-run', 'the run has no rows in `eval_query_results`', 0, null);
        if (this.duplicates.length > 0)
            run('duplicate-query', `${numberFormat_plural(this.duplicates.length, 'query_id has', 'query_ids have')} more than one row (only the last one read is scored): ${firstIds(this.duplicates)}`, this.duplicates.length, this.duplicates[0]);
        if (golden !== null)
            this.goldenFindings(golden, complete, run);
        return found;
    }
    goldenFindings(golden, complete, run) {
        const goldenIds = new Set(golden.queries?.map((q) => q.id));
        const extra = golden.queries === null ? [] : [...this.seen].filter((id) => !goldenIds.has(id));
        if (extra.length > 0)
            run('not-in-golden', `${numberFormat_plural(extra.length, 'query is', 'queries are')} not in the golden set ${golden.source} (not scored): ${firstIds(extra)}`, extra.length, extra[0]);
        // Rows left unread (a partial check) are no evidence of a missing query.
        const missing = !complete
            ? []
            : (golden.queries ?? []).filter((q) => !q.pending && !this.seen.has(q.id)).map((q) => q.id);
        if (missing.length > 0)
            run('missing-from-run', `${numberFormat_plural(missing.length, 'query', 'queries')} of the golden set ${golden.source} ${missing.length === 1 ? 'has' : 'have'} no result (each a miss): ${firstIds(missing)}`, missing.length, null);
        const pathsMatch = golden.pathsMatch;
        // A run of answers without hits (a generation-only run, WFGY's traces without chunks) is a shape of its own;
        // hits without ids, hits under another key, or a run with neither hits nor answers is a runner's mistake.
        // An empty run is no silent 0: every query counts as missing, in every report.
        const mistaken = this.hits > 0 || this.misnamedHits || this.answers === 0;
        if (golden.expectsHits && this.rows > 0 && !this.hasUsableHit(golden) && mistaken) {
            const why = this.hits === 0
                ? 'no result has a hit in `hits_top_k`'
                : `none of its ${this.hits.toLocaleString('en-US')} hits has a \`chunk_id\` or \`doc_id\`${pathsMatch ? ' or a path' : ''}`;
            run('no-usable-hits', `${why}, while the golden set ${golden.source} expects hits: every retrieval metric would be 0, which says nothing about retrieval`, this.rows, null, true);
        }
    }
}
/** A golden query that a retrieved hit can meet: an expected id, a judged-relevant id or a gold support. */
function expectsHit(q) {
    if (q.pending)
        return false;
    if ((q.expectedChunkIds?.length ?? 0) > 0 || (q.expectedDocIds?.length ?? 0) > 0 || q.goldSupports.length > 0)
        return true;
    for (const grade of q.judgments.values())
        if (grade > 0)
            return true;
    return false;
}
function isOneToN(ranks) {
    const sorted = [...ranks].sort((a, b) => a - b);
    return sorted.every((rank, i) => rank === i + 1);
}
function firstIds(ids) {
    const shown = ids.slice(0, FIRST_IDS).map((id) => `\`${inputText_oneLine(id)}\``);
    return `${shown.join(', ')}${ids.length > FIRST_IDS ? `, and ${(ids.length - FIRST_IDS).toLocaleString('en-US')} more` : ''}`;
}
/**
 * A finding as one line: `FILE: run \`R\`, query \`Q\`: what (in N queries)`. The entries print it; the data stays
 * in the warning list until then.
 */
function formatFinding(f) {
    const ofRows = ROW_CHECKS.has(f.check) && f.query !== null;
    const where = `${f.source}: run \`${inputText_oneLine(f.run)}\`${ofRows ? `, query \`${inputText_oneLine(f.query)}\`` : ''}`;
    const count = f.count.toLocaleString('en-US');
    const shown = f.count > 1 ? '; the first is shown' : '';
    // A partial check says of how many results it counts: the rest were not read.
    const more = !ofRows
        ? ''
        : f.of !== undefined
            ? ` (in ${count} of the first ${f.of.toLocaleString('en-US')} results${shown})`
            : f.count > 1
                ? ` (in ${count} queries${shown})`
                : '';
    return `${where}: ${f.text}${more}`;
}
/** compare's reason for refusing a JSON cell (an InputError `check` throws), as a finding's text; null: none. */
function refusal(check) {
    try {
        check();
        return null;
    }
    catch (error) {
        if (!(error instanceof errors_InputError))
            throw error;
        return error.message;
    }
}

;// CONCATENATED MODULE: ./src/validate/checkRunFile.ts
/**
 * A run database's results checked against the documented format: the reading around RunChecker (findings.ts).
 * The file is opened and its run chosen by the reader compare and aggregate use, so a file they refuse is refused
 * here with the same message (exit 2); what they would read without a word becomes a finding.
 */




/**
 * Checks the result rows of one run of `file` (default: the newest), against `golden` when given: every row, or the
 * first `extent.rows` and then on only until a hit that can match is seen (a runner's mistake repeats in every row;
 * a run with no usable hit is read to its end before compare stops on it), and to the end once a row shows a runner
 * mistake: a clean run costs `extent.rows` rows, and a mistake the report names is counted as validate counts it.
 */
async function checkRunFile(file, runId, golden, extent = null) {
    // compare and aggregate (an extent) pass the run they have read, checks and all; validate lets the reader pick
    // and check it, so a file it refuses is refused here in the same words.
    let run = runId;
    if (extent === null || run === null) {
        const stream = await openRunStream(file, runId);
        run = stream.run.runId;
        stream.release?.();
    }
    const checker = new RunChecker(file, run);
    let partial = false;
    const db = await openRunDatabase(file);
    try {
        // The length beside the value: a value past the cap is never fetched, and is named by its size as compare names it.
        const stmt = db.prepare(`SELECT query_id, CASE WHEN octet_length(result_json) > ${MAX_VALUE_BYTES} THEN NULL ELSE result_json END, ` +
            'octet_length(result_json) FROM eval_query_results WHERE run_id = ? ORDER BY query_id');
        try {
            stmt.bind([run]);
            while (stmt.step()) {
                if (extent !== null &&
                    checker.rowCount >= extent.rows &&
                    checker.hasUsableHit(golden) &&
                    !checker.hasRunnerMistake()) {
                    partial = true;
                    break;
                }
                const [queryId, resultJson, bytes] = stmt.get();
                if (typeof bytes === 'number' && bytes > MAX_VALUE_BYTES)
                    checker.addOversizedRow(String(queryId), tooLarge(bytes));
                else
                    checker.addRow(String(queryId), resultJson);
            }
        }
        finally {
            stmt.free();
        }
    }
    catch (error) {
        if (error instanceof errors_InputError)
            throw error;
        throw new errors_InputError(`${file}: table \`eval_query_results\`: SQLite could not read it: ${inputText_oneLine(error.message)}`);
    }
    finally {
        db.close();
    }
    const findings = checker.finish(golden, !partial);
    return { run, rows: checker.rowCount, partial, findings, mistakes: checker.runnerMistakes() };
}
/**
 * What compare and aggregate say of a `result_json` past MAX_VALUE_BYTES (src/load/runDatabase.ts, forEachRow), in
 * their words ("column `result_json` holds 65 MiB, more than the 64 MiB EvalVerdict reads in one value").
 */
function tooLarge(bytes) {
    const mib = (n) => `${Math.round(n / (1 << 20))} MiB`;
    return `column \`result_json\` holds ${mib(bytes)}, more than the ${mib(MAX_VALUE_BYTES)} EvalVerdict reads in one value`;
}

;// CONCATENATED MODULE: ./src/index.ts
/** The library: the pure core of EvalVerdict, with no `@actions/*` import. */
















var __webpack_exports__DEFAULT_COMPARE_OPTIONS = __webpack_exports__.re;
var __webpack_exports__DEFAULT_OPTIONS = __webpack_exports__.lp;
var __webpack_exports__InputError = __webpack_exports__.dz;
var __webpack_exports__PRESETS = __webpack_exports__.fG;
var __webpack_exports__RunWriter = __webpack_exports__.Xn;
var __webpack_exports__aggregateScored = __webpack_exports__.aD;
var __webpack_exports__applyGates = __webpack_exports__.H5;
var __webpack_exports__buildMetricTable = __webpack_exports__.h6;
var __webpack_exports__checkRunFile = __webpack_exports__.K1;
var __webpack_exports__compareRuns = __webpack_exports__.qB;
var __webpack_exports__computeAggregate = __webpack_exports__.hM;
var __webpack_exports__defaultGateConfig = __webpack_exports__.DA;
var __webpack_exports__deferRunStream = __webpack_exports__.qY;
var __webpack_exports__formatFinding = __webpack_exports__.tf;
var __webpack_exports__goldenViewOf = __webpack_exports__.ID;
var __webpack_exports__openRunStream = __webpack_exports__._f;
var __webpack_exports__parseGateConfig = __webpack_exports__.t0;
var __webpack_exports__parseGolden = __webpack_exports__.R0;
var __webpack_exports__parseGoldenJsonl = __webpack_exports__.ly;
var __webpack_exports__parseGoldenYaml = __webpack_exports__.wm;
var __webpack_exports__readGoldenFile = __webpack_exports__.so;
var __webpack_exports__readRunDatabase = __webpack_exports__.rU;
var __webpack_exports__renderReportMarkdown = __webpack_exports__.Ay;
var __webpack_exports__runFromTrec = __webpack_exports__.w3;
var __webpack_exports__scoreRun = __webpack_exports__.I6;
var __webpack_exports__settingsOf = __webpack_exports__.f5;
var __webpack_exports__stableJson = __webpack_exports__._Y;
export { __webpack_exports__DEFAULT_COMPARE_OPTIONS as DEFAULT_COMPARE_OPTIONS, __webpack_exports__DEFAULT_OPTIONS as DEFAULT_OPTIONS, __webpack_exports__InputError as InputError, __webpack_exports__PRESETS as PRESETS, __webpack_exports__RunWriter as RunWriter, __webpack_exports__aggregateScored as aggregateScored, __webpack_exports__applyGates as applyGates, __webpack_exports__buildMetricTable as buildMetricTable, __webpack_exports__checkRunFile as checkRunFile, __webpack_exports__compareRuns as compareRuns, __webpack_exports__computeAggregate as computeAggregate, __webpack_exports__defaultGateConfig as defaultGateConfig, __webpack_exports__deferRunStream as deferRunStream, __webpack_exports__formatFinding as formatFinding, __webpack_exports__goldenViewOf as goldenViewOf, __webpack_exports__openRunStream as openRunStream, __webpack_exports__parseGateConfig as parseGateConfig, __webpack_exports__parseGolden as parseGolden, __webpack_exports__parseGoldenJsonl as parseGoldenJsonl, __webpack_exports__parseGoldenYaml as parseGoldenYaml, __webpack_exports__readGoldenFile as readGoldenFile, __webpack_exports__readRunDatabase as readRunDatabase, __webpack_exports__renderReportMarkdown as renderReportMarkdown, __webpack_exports__runFromTrec as runFromTrec, __webpack_exports__scoreRun as scoreRun, __webpack_exports__settingsOf as settingsOf, __webpack_exports__stableJson as stableJson };
