#define IDLELAB_SRCDIR "/work/main"
