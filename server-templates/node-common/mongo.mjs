// The contract's /docs over a MongoDB-protocol database (the template's knob `database` set to
// `mongo`: the host's mongod or FerretDB) with Mongoose, the siege seed's ODM: insert one random
// document into `docs`, then answer 100 stored documents, unsorted as the seed's select was (in the
// database's own order, so FerretDB reads 100 rows, not the whole collection), with the same fields
// as over PostgreSQL, the id as the ObjectId's hex. The other database endpoints are PostgreSQL's
// (TechEmpower's rows): they answer 503 here. Only a template that passes createMongoDatabase to
// runServer (node-restify) bundles Mongoose. Pool: the same min(2 × cores, 32) per server.

import mongoose from 'mongoose';
import { randomLetters, text } from './contract.mjs';
import { describeUrl } from './database.mjs';

const STORED_DOCS = 100;
export const POSTGRES_ONLY = text(503, 'the database mongo serves /docs only: deploy with the knob database postgres for this endpoint\n');

const docSchema = new mongoose.Schema({ title: String, body: String, count: Number }, { versionKey: false, collection: 'docs' });

export function createMongoDatabase(url, poolSize, onError) {
  const connection = mongoose.createConnection(url, { maxPoolSize: poolSize, minPoolSize: 0, serverSelectionTimeoutMS: 10_000 });
  connection.on('error', (error) => onError(`database connection error: ${error.message}`));
  const Doc = connection.model('Doc', docSchema);
  const postgresOnly = async () => POSTGRES_ONLY;
  return {
    enabled: true,
    poolSize,
    check: async () => {
      try {
        await connection.asPromise();
        await connection.db.command({ ping: 1 });
      } catch (error) {
        throw new Error(`cannot reach the database at ${describeUrl(url)}: ${error.message}`, { cause: error });
      }
    },
    close: () => connection.close(),
    db: postgresOnly,
    queries: postgresOnly,
    updates: postgresOnly,
    fortunes: postgresOnly,
    docs: async () => {
      await Doc.create({ title: randomLetters(10), body: randomLetters(100), count: 1 + Math.floor(Math.random() * 10_000) });
      const rows = await Doc.find().limit(STORED_DOCS).lean();
      const body = JSON.stringify(rows.map((row) => ({ id: String(row._id), title: row.title, body: row.body, count: row.count })));
      return { status: 200, type: 'application/json', body };
    },
  };
}
