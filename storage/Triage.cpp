#include "storage/Triage.h"

namespace gpurace::storage {

using sql::StatusError;

void setReview(sql::Connection &db, const v1::SetReviewRequest &request,
               int64_t now) {
  if (request.state() == v1::REVIEW_STATE_UNSPECIFIED)
    throw StatusError(Status::invalid(
        "state: required (REVIEW_STATE_UNREVIEWED, REVIEW_STATE_CONFIRMED, "
        "REVIEW_STATE_FALSE_POSITIVE or REVIEW_STATE_INTENTIONAL)"));
  if (request.comment().size() > 10000)
    throw StatusError(Status::invalid("comment: longer than 10000 characters"));
  if (request.author().size() > 256)
    throw StatusError(Status::invalid("author: longer than 256 characters"));
  db.prepare("UPDATE races SET review_state = ?, review_comment = ?, "
             "review_author = ?, review_updated_at = ? WHERE id = ?")
      .bind(1, static_cast<int64_t>(request.state()))
      .bind(2, request.comment())
      .bind(3, request.author())
      .bind(4, now)
      .bind(5, request.race_id())
      .run();
  if (db.changes() == 0)
    throw StatusError(Status::notFound(
        "race_id: race " + std::to_string(request.race_id()) + " not found"));
  db.prepare("INSERT INTO reviews(race_id, state, comment, author, created_at) "
             "VALUES (?, ?, ?, ?, ?)")
      .bind(1, request.race_id())
      .bind(2, static_cast<int64_t>(request.state()))
      .bind(3, request.comment())
      .bind(4, request.author())
      .bind(5, now)
      .run();
}

} // namespace gpurace::storage
