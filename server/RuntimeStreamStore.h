//===- RuntimeStreamStore.h - one runtime stream's batches, stored behind ---===//
//
// An agent's stream is read while its earlier reports are being stored.
// Batches queue for a storing thread of the stream's own, which hands
// everything queued to the store in one call: while the writer serves
// other agents, a stream's next batches gather, and the next shared
// transaction takes them together. Few agents then fill transactions as
// many agents do, and each transaction updates each race's counters once
// for all its reports.
//
// Only stored reports are acknowledged, in the order they came. After a
// failure nothing more is stored: push() says so and finish() returns it.
//
//===----------------------------------------------------------------------===//
#ifndef GPURACE_SERVER_RUNTIMESTREAMSTORE_H
#define GPURACE_SERVER_RUNTIMESTREAMSTORE_H

#include "gpurace/v1/service.grpc.pb.h"
#include "server/RaceService.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gpurace {

class RuntimeStreamStore {
public:
  using Stream =
      grpc::ServerReaderWriter<v1::ReportRuntimeAck, v1::ReportRuntimeRequest>;

  // At most this many batches wait behind the one being stored; reading
  // pauses beyond that, which pauses the agent through gRPC's flow control.
  static constexpr size_t kQueuedBatches = 4;

  RuntimeStreamStore(RaceService &service, Stream &stream);
  ~RuntimeStreamStore();
  RuntimeStreamStore(const RuntimeStreamStore &) = delete;
  RuntimeStreamStore &operator=(const RuntimeStreamStore &) = delete;

  // Queues a batch to store and acknowledge. False once storing or
  // acknowledging failed: the stream should end with finish().
  bool push(std::vector<v1::ReportRuntimeRequest> batch);
  // Stores what is queued, then stops: OK, or the first failure.
  grpc::Status finish();

private:
  void storeQueued();
  // Stores the batches and acknowledges them in one message.
  grpc::Status storeAndAck(std::vector<v1::ReportRuntimeRequest> &reports);

  RaceService &service_;
  Stream &stream_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<v1::ReportRuntimeRequest>> queued_;
  bool closed_ = false;
  grpc::Status failure_ = grpc::Status::OK;
  std::thread storer_;
};

} // namespace gpurace

#endif
