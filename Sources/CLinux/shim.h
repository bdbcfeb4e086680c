// Linux calls the Glibc module does not export: epoll and eventfd for the server's event loop.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
