#include "statuscolors.h"
