#include "timelineview.h"
