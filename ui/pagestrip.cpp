#include "pagestrip.h"
