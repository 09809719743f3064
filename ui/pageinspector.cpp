#include "pageinspector.h"
