#include "server/RuntimeStreamStore.h"

#include "server/GrpcServices.h"

namespace gpurace {

RuntimeStreamStore::RuntimeStreamStore(RaceService &service, Stream &stream)
    : service_(service), stream_(stream) {
  storer_ = std::thread([this] { storeQueued(); });
}

RuntimeStreamStore::~RuntimeStreamStore() { finish(); }

bool RuntimeStreamStore::push(std::vector<v1::ReportRuntimeRequest> batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (batch.empty())
    return failure_.ok();
  changed_.wait(lock, [&] {
    return queued_.size() < kQueuedBatches || !failure_.ok();
  });
  if (!failure_.ok())
    return false;
  queued_.push_back(std::move(batch));
  changed_.notify_all();
  return true;
}

grpc::Status RuntimeStreamStore::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }
  if (storer_.joinable())
    storer_.join();
  return failure_;
}

void RuntimeStreamStore::storeQueued() {
  while (true) {
    std::vector<v1::ReportRuntimeRequest> reports;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queued_.empty() || closed_; });
      if (queued_.empty())
        return;
      for (auto &batch : queued_)
        for (auto &report : batch)
          reports.push_back(std::move(report));
      queued_.clear();
      changed_.notify_all();
    }
    grpc::Status stored = storeAndAck(reports);
    if (!stored.ok()) {
      std::lock_guard<std::mutex> lock(mutex_);
      failure_ = stored;
      queued_.clear();
      changed_.notify_all();
      return;
    }
  }
}

grpc::Status
RuntimeStreamStore::storeAndAck(std::vector<v1::ReportRuntimeRequest> &reports) {
  auto stored = service_.reportRuntimeBatch(reports);
  if (!stored.ok())
    return toGrpc(stored.status());
  v1::ReportRuntimeAck ack;
  for (size_t i = 0; i < reports.size(); ++i) {
    ack.add_upload_ids(reports[i].upload_id());
    ack.set_races_confirmed(ack.races_confirmed() + (*stored)[i].races_confirmed);
  }
  if (!stream_.Write(ack))
    return {grpc::StatusCode::UNAVAILABLE, "client went away"};
  return grpc::Status::OK;
}

} // namespace gpurace
