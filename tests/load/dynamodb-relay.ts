import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chargeOfGet, chargeOfQuery, chargesOfWrite, type Charge, type Item, type TableKeys } from './capacity';

/**
 * A recording relay in front of DynamoDB Local (issue 36): the functions' DynamoDB endpoint points
 * here, every request is passed on unchanged and answered with DynamoDB Local's own answer, and what
 * each request put on each partition is recorded (tests/load/capacity.ts), under the label the
 * driver set (`label`). To size writes, the relay reads each written item just before and just after
 * the write (consistent GetItems of its own, not recorded): the driver sends one operation's requests
 * at a time per key, so the images are the write's.
 */
export interface Relay {
  url: string;
  /** Charges recorded from now on carry this label; null: not recorded. */
  label(name: string | null): void;
  charges(name: string): Charge[];
  /** Every request recorded under a label, by operation name (PutItem, TransactWriteItems …). */
  requests(name: string): Record<string, number>;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

export async function startDynamoDbRelay(upstream: string, port = 0): Promise<Relay> {
  const target = new URL(upstream);
  const keysCache = new Map<string, Promise<TableKeys>>();
  const recorded = new Map<string, Charge[]>();
  const counts = new Map<string, Record<string, number>>();
  let current: string | null = null;

  /** A request of our own to DynamoDB Local (describe, before and after images). */
  async function call(op: string, body: Body): Promise<Body> {
    const res = await fetch(upstream, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${op}`,
        // DynamoDB Local wants a signature's shape, not a valid one.
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Body;
  }

  function keysOf(table: string): Promise<TableKeys> {
    let k = keysCache.get(table);
    if (!k) {
      k = call('DescribeTable', { TableName: table }).then((d) => {
        const t = d.Table as { KeySchema: { AttributeName: string; KeyType: string }[]; GlobalSecondaryIndexes?: { IndexName: string; KeySchema: { AttributeName: string; KeyType: string }[] }[] };
        const schema = (ks: { AttributeName: string; KeyType: string }[]) => ({ pk: ks.find((x) => x.KeyType === 'HASH')!.AttributeName, sk: ks.find((x) => x.KeyType === 'RANGE')?.AttributeName });
        return { table: schema(t.KeySchema), indexes: Object.fromEntries((t.GlobalSecondaryIndexes ?? []).map((g) => [g.IndexName, schema(g.KeySchema)])) };
      });
      keysCache.set(table, k);
    }
    return k;
  }

  async function keyOf(table: string, item: Item): Promise<Item> {
    const k = (await keysOf(table)).table;
    return { [k.pk]: item[k.pk]!, ...(k.sk && item[k.sk] ? { [k.sk]: item[k.sk]! } : {}) };
  }
  const image = async (table: string, key: Item) => ((await call('GetItem', { TableName: table, Key: key, ConsistentRead: true })).Item as Item | undefined) ?? null;

  interface Write {
    table: string;
    key: Item;
    before: Item | null;
    transactional: boolean;
    index: number;
  }
  /** The items a write request touches (their keys), read before it is passed on. */
  async function writesOf(op: string, body: Body): Promise<Write[]> {
    const list: Omit<Write, 'before'>[] = [];
    if (op === 'PutItem') list.push({ table: body.TableName as string, key: await keyOf(body.TableName as string, body.Item as Item), transactional: false, index: 0 });
    if (op === 'UpdateItem' || op === 'DeleteItem') list.push({ table: body.TableName as string, key: body.Key as Item, transactional: false, index: 0 });
    if (op === 'BatchWriteItem') {
      for (const [table, reqs] of Object.entries(body.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>)) {
        for (const r of reqs) list.push({ table, key: r.PutRequest ? await keyOf(table, r.PutRequest.Item) : r.DeleteRequest!.Key, transactional: false, index: list.length });
      }
    }
    if (op === 'TransactWriteItems') {
      let i = 0;
      for (const t of body.TransactItems as Record<string, { TableName: string; Item?: Item; Key?: Item }>[]) {
        const [, x] = Object.entries(t)[0]!;
        list.push({ table: x.TableName, key: x.Item ? await keyOf(x.TableName, x.Item) : x.Key!, transactional: true, index: i++ });
      }
    }
    return Promise.all(list.map(async (w) => ({ ...w, before: await image(w.table, w.key) })));
  }

  async function record(op: string, body: Body, status: number, answer: Body, writes: Write[]) {
    const out: Charge[] = [];
    if (writes.length) {
      // Applied: the request succeeded; a cancelled transaction or a failed condition wrote nothing.
      const applied = status === 200;
      const unprocessed = new Set<string>();
      if (op === 'BatchWriteItem' && applied) {
        for (const [table, reqs] of Object.entries((answer.UnprocessedItems ?? {}) as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>)) {
          for (const r of reqs) unprocessed.add(`${table}|${JSON.stringify(r.PutRequest ? await keyOf(table, r.PutRequest.Item) : r.DeleteRequest!.Key)}`);
        }
      }
      for (const w of writes) {
        const ok = applied && !unprocessed.has(`${w.table}|${JSON.stringify(w.key)}`);
        const isCheck = op === 'TransactWriteItems' && 'ConditionCheck' in (body.TransactItems as Body[])[w.index]!;
        const after = ok && !isCheck ? await image(w.table, w.key) : w.before;
        out.push(...chargesOfWrite(w.table, await keysOf(w.table), { before: w.before, after, applied: ok && !isCheck, transactional: w.transactional, key: w.key }));
      }
    }
    if (op === 'GetItem' && status === 200) {
      out.push(chargeOfGet(body.TableName as string, await keysOf(body.TableName as string), { key: body.Key as Item, item: (answer.Item as Item | undefined) ?? null, consistent: body.ConsistentRead === true, transactional: false }));
    }
    if (op === 'BatchGetItem' && status === 200) {
      const responses = (answer.Responses ?? {}) as Record<string, Item[]>;
      for (const [table, req] of Object.entries(body.RequestItems as Record<string, { Keys: Item[]; ConsistentRead?: boolean }>)) {
        const keys = await keysOf(table);
        for (const key of req.Keys) {
          const found = (responses[table] ?? []).find((it) => it[keys.table.pk]?.S === key[keys.table.pk]?.S && (!keys.table.sk || it[keys.table.sk]?.S === key[keys.table.sk]?.S)) ?? null;
          out.push(chargeOfGet(table, keys, { key, item: found, consistent: req.ConsistentRead === true, transactional: false }));
        }
      }
    }
    if (op === 'TransactGetItems' && status === 200) {
      const got = (answer.Responses ?? []) as { Item?: Item }[];
      for (const [i, t] of (body.TransactItems as { Get: { TableName: string; Key: Item } }[]).entries()) {
        out.push(chargeOfGet(t.Get.TableName, await keysOf(t.Get.TableName), { key: t.Get.Key, item: got[i]?.Item ?? null, consistent: true, transactional: true }));
      }
    }
    if (op === 'Query' && status === 200) {
      const table = body.TableName as string;
      const keys = await keysOf(table);
      const where = (body.IndexName as string | undefined) ?? 'table';
      const pkAttr = where === 'table' ? keys.table.pk : keys.indexes[where]!.pk;
      out.push(chargeOfQuery(table, { where, partition: partitionOfQuery(body, pkAttr), items: (answer.Items ?? []) as Item[], scanned: (answer.ScannedCount as number | undefined) ?? 0, consistent: body.ConsistentRead === true }));
    }
    if (op === 'Scan' && status === 200) {
      out.push({ table: body.TableName as string, where: (body.IndexName as string | undefined) ?? 'table', partition: '(scan)', wcu: 0, rcu: chargeOfQuery('', { where: '', partition: '', items: (answer.Items ?? []) as Item[], scanned: (answer.ScannedCount as number | undefined) ?? 0, consistent: body.ConsistentRead === true }).rcu });
    }
    return out;
  }

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readAll(req);
      const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      const label = current;
      let body: Body = {};
      let writes: Write[] = [];
      if (label !== null) {
        body = JSON.parse(raw.toString('utf8') || '{}') as Body;
        writes = await writesOf(op, body);
      }
      const upstreamAnswer = await forward(target, req, raw);
      res.writeHead(upstreamAnswer.status, upstreamAnswer.headers);
      res.end(upstreamAnswer.body);
      if (label !== null) {
        const c = counts.get(label) ?? {};
        c[op] = (c[op] ?? 0) + 1;
        counts.set(label, c);
        const answer = JSON.parse(upstreamAnswer.body.toString('utf8') || '{}') as Body;
        const list = recorded.get(label) ?? [];
        list.push(...(await record(op, body, upstreamAnswer.status, answer, writes)));
        recorded.set(label, list);
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    label: (name) => {
      current = name;
    },
    charges: (name) => recorded.get(name) ?? [],
    requests: (name) => counts.get(name) ?? {},
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The partition key's value in a Query's key condition (`#pk = :pk`, names and values resolved). */
export function partitionOfQuery(body: Body, pkAttr: string): string {
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, { S?: string; N?: string }>;
  const expr = String(body.KeyConditionExpression ?? '');
  for (const m of expr.matchAll(/\(?\s*(#?[\w]+)\s*\)?\s*=\s*\(?\s*(:[\w]+)/g)) {
    const name = m[1]!.startsWith('#') ? names[m[1]!] : m[1];
    if (name === pkAttr) return values[m[2]!]?.S ?? values[m[2]!]?.N ?? '?';
  }
  return '?';
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const up = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (res) => {
        void readAll(res).then((b) => {
          const headers: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'transfer-encoding') headers[k] = v;
          headers['content-length'] = String(b.length);
          resolve({ status: res.statusCode ?? 502, headers, body: b });
        }, reject);
      },
    );
    up.on('error', reject);
    up.end(body);
  });
}
