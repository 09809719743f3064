#pragma once

#include "pagedlistmodel.h"
#include "pagewalker.h"

#include <QSignalSpy>

namespace testsupport {

// Follows the model's cursors to the end of the list (or to a stop) and waits up to timeoutMs for the
// walk to finish: whether it did.
inline bool walkAll(folio::PagedListModel &model, int timeoutMs)
{
    QSignalSpy finished(model.walker(), &folio::PageWalker::walkFinished);
    model.walker()->fetchAll();
    return finished.wait(timeoutMs);
}

} // namespace testsupport
