// Linux calls the Glibc module does not export: epoll and eventfd for the event loops, a
// recvmsg that reads the kernel's arrival timestamp for the benchmark, and a Unix socket's peer.
#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// Reads like read(2); `*arrival_ns` gets the CLOCK_REALTIME nanosecond at which the kernel
/// received the data (SO_TIMESTAMPNS must be on), or 0 when there is no stamp.
static inline long setgame_read_stamped(int fd, void *buffer, unsigned long length, long long *arrival_ns) {
    struct iovec iov = { buffer, length };
    char control[128];
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    long count = recvmsg(fd, &message, 0);
    *arrival_ns = 0;
    if (count > 0) {
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMPNS) {
                struct timespec stamp;
                memcpy(&stamp, CMSG_DATA(header), sizeof stamp);
                *arrival_ns = (long long)stamp.tv_sec * 1000000000LL + stamp.tv_nsec;
            }
        }
    }
    return count;
}

/// Turns kernel receive timestamps on for a socket.
static inline int setgame_enable_arrival_stamps(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

/// CLOCK_REALTIME in nanoseconds: the clock the kernel stamps arrivals with.
static inline long long setgame_realtime_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// accept(2) whose socket is closed on exec, made so by the kernel in the same call: a program
/// another thread starts in between (a bench's server, a test's PostgreSQL) never inherits it,
/// and a peer's hang-up is never held back by a stranger keeping the socket open. The raw system
/// call, as for the CPU pin below.
static inline int setgame_accept_cloexec(int listener) {
    return (int)syscall(SYS_accept4, listener, (void *)0, (void *)0, SOCK_CLOEXEC);
}

/// Keeps process (or thread) `pid` on one CPU; 0 means the calling thread. Returns 0 on success.
/// The raw system call: the libc wrapper needs _GNU_SOURCE, which would make these headers
/// disagree with the Glibc module Swift already has.
static inline int setgame_pin_to_cpu(int pid, int cpu) {
    unsigned long mask[16];
    const int bits = 8 * (int)sizeof(unsigned long);
    if (cpu < 0 || cpu >= 16 * bits) return -1;
    memset(mask, 0, sizeof mask);
    mask[cpu / bits] |= 1UL << (cpu % bits);
    return (int)syscall(SYS_sched_setaffinity, pid, sizeof mask, mask);
}

/// Raises the soft RLIMIT_NOFILE to the hard one (at most `ceiling`); returns the soft limit now
/// in force and writes the hard one to `*hard`, or -1 when the limit cannot be read.
static inline long long setgame_raise_descriptor_limit(long long ceiling, long long *hard) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    rlim_t target = limit.rlim_max == RLIM_INFINITY || limit.rlim_max > (rlim_t)ceiling ? (rlim_t)ceiling : limit.rlim_max;
    if (limit.rlim_cur < target) {
        struct rlimit raised = { target, limit.rlim_max };
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit.rlim_cur = target;
    }
    *hard = limit.rlim_max == RLIM_INFINITY ? -1 : (long long)limit.rlim_max;
    return limit.rlim_cur == RLIM_INFINITY ? ceiling : (long long)limit.rlim_cur;
}

/// The uid of the process at the other end of a Unix stream socket (SO_PEERCRED), as the kernel
/// recorded it at connect: 0 on success, -1 with errno set. `struct ucred` needs _GNU_SOURCE (see
/// above), so its layout is spelt out here: pid, uid, gid, as Linux defines it.
static inline int setgame_peer_uid(int fd, unsigned int *uid) {
    struct { int pid; unsigned int uid; unsigned int gid; } peer;
    socklen_t length = sizeof peer;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0) return -1;
    *uid = peer.uid;
    return 0;
}


/// syncfs(2): every file of `fd`'s filesystem on disk, in one call (glibc hides it behind _GNU_SOURCE).
static inline int setgame_syncfs(int fd) { return (int)syscall(SYS_syncfs, fd); }

/// Lowers the calling thread (Linux's nice is per thread) to the lowest priority, nice 19: a
/// thread that wakes with it does not take the core from a nice-0 thread running there, and
/// gets what the others leave (a nice-19 thread's share of a busy core is about 1.5 %).
/// Lowering needs no privilege. Returns 0 on success.
static inline int setgame_lower_to_background(void) { return setpriority(PRIO_PROCESS, 0, 19); }

/// The calling thread's nice.
static inline int setgame_thread_nice(void) { return getpriority(PRIO_PROCESS, 0); }

/// Asks the scheduler for a short time slice for the calling thread, keeping its policy
/// (SCHED_OTHER) and nice: EEVDF's custom slice (Linux 6.12 on), clamped by the kernel to
/// 0.1-100 ms. A thread waking with a shorter slice than the running one's may preempt it
/// rather than wait for the end of that one's slice. Returns 0 when the kernel took the request;
/// a kernel without custom slices takes it and ignores the slice. The raw system call: glibc
/// has no wrapper for sched_setattr before 2.41.
static inline int setgame_request_short_slice(unsigned long long slice_ns) {
    struct {
        unsigned int size, sched_policy;
        unsigned long long sched_flags;
        int sched_nice;
        unsigned int sched_priority;
        unsigned long long sched_runtime, sched_deadline, sched_period;
    } attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.sched_policy = 0;  /* SCHED_OTHER */
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, 0);
    if (nice == -1 && errno != 0) return -1;
    attr.sched_nice = nice;
    attr.sched_runtime = slice_ns;
    return (int)syscall(SYS_sched_setattr, 0, &attr, 0);
}
