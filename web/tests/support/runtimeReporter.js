// Sends RuntimeReport fixtures to the server the way the runtime agent
// does: over the gRPC ReportRuntime stream, with a store token. The
// messages come from proto/, the project's one data model.

import fs from 'node:fs';
import path from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { FIXTURES, WEB_ROOT } from './gpurace.js';

const PROTO_ROOT = path.resolve(WEB_ROOT, '..', 'proto');

function ingestClient(address) {
  const definition = protoLoader.loadSync('gpurace/v1/service.proto', {
    includeDirs: [PROTO_ROOT],
    longs: String,
    enums: String,
  });
  const { IngestService } = grpc.loadPackageDefinition(definition).gpurace.v1;
  return new IngestService(address, grpc.credentials.createInsecure());
}

// protobufjs takes google.protobuf.Timestamp as seconds and nanos, where
// proto3 JSON writes an RFC 3339 string.
function timestampOf(text) {
  const millis = Date.parse(text);
  return { seconds: String(Math.floor(millis / 1000)), nanos: (millis % 1000) * 1e6 };
}

function requestOf(fixture, metadata) {
  const report = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture), 'utf8'));
  if (report.observedAt) report.observedAt = timestampOf(report.observedAt);
  return { uploadId: `${fixture}@${metadata.commit}`, metadata, report };
}

// Streams the reports and resolves with the server's acknowledgements once
// it closes the stream.
export function reportRuntime(server, fixtures, metadata) {
  const client = ingestClient(server.grpcAddress);
  const auth = new grpc.Metadata();
  auth.set('authorization', `Bearer ${server.tokens.store}`);
  return new Promise((resolve, reject) => {
    const acks = [];
    const call = client.ReportRuntime(auth, { deadline: Date.now() + 30_000 });
    call.on('data', (ack) => acks.push(ack));
    call.on('error', (error) => reject(new Error(`ReportRuntime failed: ${error.message}`)));
    call.on('end', () => {
      client.close();
      resolve(acks);
    });
    for (const fixture of fixtures) call.write(requestOf(fixture, metadata));
    call.end();
  });
}
