#include "runtime/detector/RaceSet.h"

#include <algorithm>

namespace gpurace::rt {

void RaceSet::add(const Race &race) {
  Key key{std::min(race.first_site, race.second_site),
          std::max(race.first_site, race.second_site),
          static_cast<int>(race.race_class)};
  auto [it, inserted] = index_.emplace(key, races_.size());
  if (inserted)
    races_.push_back(race);
  else
    ++races_[it->second].count;
}

} // namespace gpurace::rt
