#include "ttlclock.h"
