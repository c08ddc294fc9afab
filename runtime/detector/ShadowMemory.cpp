#include "runtime/detector/ShadowMemory.h"

namespace gpurace::rt {

void AccessList::push_back(const ShadowAccess &access) {
  if (count_ < kInline) {
    few_[count_++] = access;
    return;
  }
  if (count_ == kInline)
    many_.assign(few_, few_ + kInline);
  many_.push_back(access);
  ++count_;
}

void AccessList::pop_front() {
  if (count_ == 0)
    return;
  if (!onHeap()) {
    std::copy(few_ + 1, few_ + count_, few_);
    --count_;
    return;
  }
  many_.erase(many_.begin());
  --count_;
  if (!onHeap())
    moveInline();
}

void AccessList::moveInline() {
  std::copy(many_.begin(), many_.end(), few_);
  many_.clear();
}

ShadowWord &ShadowMemory::word(uint64_t key) {
  uint64_t id = key / kChunkWords;
  if (id != last_id_) {
    Chunk *&chunk = chunks_[id];
    if (!chunk)
      chunk = newChunk();
    last_ = chunk;
    last_id_ = id;
  }
  uint8_t bit = uint8_t(1u << (key % kChunkWords));
  if (!(last_->used & bit)) {
    last_->used |= bit;
    ++words_;
  }
  return last_->words[key % kChunkWords];
}

ShadowMemory::Chunk *ShadowMemory::newChunk() {
  if (slab_used_ == kSlabChunks) {
    slabs_.push_back(std::make_unique<Chunk[]>(kSlabChunks));
    slab_used_ = 0;
  }
  return &slabs_.back()[slab_used_++];
}

void ShadowMemory::remember(AccessList &list, const ShadowAccess &access) {
  if (list.size() >= kMaxEntries) {
    list.pop_front();
    ++evicted_;
  }
  list.push_back(access);
}

} // namespace gpurace::rt
