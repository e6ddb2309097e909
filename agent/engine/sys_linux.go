// The system calls of the loops, made raw — without the scheduler's hand-off of the syscall
// package's wrappers: socket, setsockopt, connect, epoll_ctl and close for a new connection, reads
// (with the kernel's receive time) and writes, none of which blocks (nonblocking sockets; a close
// that does not linger), and the epoll wait (see epollWait) with a nanosecond timeout (epoll_pwait2,
// falling back to epoll_pwait's milliseconds on older kernels); an eventfd to wake a loop, and the
// process's own CPU time.

package main

import (
	"sync/atomic"
	"syscall"
	"unsafe"
)

// epoll_pwait2's number is the same on amd64 and arm64 (the generic table).
const sysEpollPwait2 = 441

var noPwait2 atomic.Bool

func rawRead(fd int, buffer []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&buffer[0])), uintptr(len(buffer)))
	return int(n), errno
}

func rawWrite(fd int, buffer []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&buffer[0])), uintptr(len(buffer)))
	return int(n), errno
}

// rawSend writes on a socket without SIGPIPE when the peer is gone (EPIPE says it instead).
func rawSend(fd int, buffer []byte) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall6(syscall.SYS_SENDTO, uintptr(fd), uintptr(unsafe.Pointer(&buffer[0])), uintptr(len(buffer)), syscall.MSG_NOSIGNAL, 0, 0)
	return int(n), errno
}

func rawSocket(family int) (int, syscall.Errno) {
	fd, _, errno := syscall.RawSyscall(syscall.SYS_SOCKET, uintptr(family), syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	return int(fd), errno
}

func rawSetsockoptInt(fd, level, option, value int) {
	v := int32(value)
	_, _, _ = syscall.RawSyscall6(syscall.SYS_SETSOCKOPT, uintptr(fd), uintptr(level), uintptr(option), uintptr(unsafe.Pointer(&v)), 4, 0)
}

// rawSockaddr is a socket address in the kernel's layout.
type rawSockaddr struct {
	data   [syscall.SizeofSockaddrInet6]byte
	length uintptr
}

func toRawSockaddr(sockaddr syscall.Sockaddr) rawSockaddr {
	var raw rawSockaddr
	switch address := sockaddr.(type) {
	case *syscall.SockaddrInet4:
		inet := (*syscall.RawSockaddrInet4)(unsafe.Pointer(&raw.data[0]))
		inet.Family = syscall.AF_INET
		setPort(&inet.Port, address.Port)
		inet.Addr = address.Addr
		raw.length = syscall.SizeofSockaddrInet4
	case *syscall.SockaddrInet6:
		inet := (*syscall.RawSockaddrInet6)(unsafe.Pointer(&raw.data[0]))
		inet.Family = syscall.AF_INET6
		setPort(&inet.Port, address.Port)
		inet.Scope_id = address.ZoneId
		inet.Addr = address.Addr
		raw.length = syscall.SizeofSockaddrInet6
	}
	return raw
}

// setPort stores a port in network byte order.
func setPort(field *uint16, port int) {
	bytes := (*[2]byte)(unsafe.Pointer(field))
	bytes[0], bytes[1] = byte(port>>8), byte(port)
}

func rawConnect(fd int, address *rawSockaddr) syscall.Errno {
	_, _, errno := syscall.RawSyscall(syscall.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&address.data[0])), address.length)
	return errno
}

func rawEpollCtl(epfd, op, fd int, event *syscall.EpollEvent) syscall.Errno {
	_, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_CTL, uintptr(epfd), uintptr(op), uintptr(fd), uintptr(unsafe.Pointer(event)), 0, 0)
	return errno
}

func rawClose(fd int) {
	_, _, _ = syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0)
}

// epollWait waits at most timeoutNs (negative: without limit); EINTR returns 0 events.
func epollWait(epfd int, events []syscall.EpollEvent, timeoutNs int64) (int, error) {
	if !noPwait2.Load() {
		var timeout *syscall.Timespec
		var spec syscall.Timespec
		if timeoutNs >= 0 {
			spec = syscall.NsecToTimespec(timeoutNs)
			timeout = &spec
		}
		// Raw, so the loop keeps its P while it waits. Through the scheduler's hand-off, a loop
		// busy for 10 ms is found in this call and its P retaken, which keeps sysmon waking every
		// 20 µs — a few % of the client's CPU on a new connection per request. A P held here is
		// still preempted (for a GC) by the runtime's signal, which ends the wait with EINTR, and
		// the reporter's commands wake the loop at least once a second.
		n, _, errno := syscall.RawSyscall6(sysEpollPwait2, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), uintptr(unsafe.Pointer(timeout)), 0, 0)
		switch errno {
		case 0:
			return int(n), nil
		case syscall.EINTR:
			return 0, nil
		case syscall.ENOSYS:
			noPwait2.Store(true)
		default:
			return 0, errno
		}
	}
	timeoutMs := -1
	if timeoutNs >= 0 {
		// Rounded up: waking early would spin, late by under a millisecond is what this kernel allows.
		timeoutMs = int((timeoutNs + 999_999) / 1_000_000)
	}
	n, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), uintptr(timeoutMs), 0, 0)
	switch errno {
	case 0:
		return int(n), nil
	case syscall.EINTR:
		return 0, nil
	default:
		return 0, errno
	}
}

func newEventFd() (int, error) {
	fd, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

func signalEventFd(fd int) {
	one := [8]byte{1}
	_, _ = rawWrite(fd, one[:])
}

func drainEventFd(fd int) {
	var value [8]byte
	_, _ = rawRead(fd, value[:])
}

// cpuSeconds is the process's own CPU time so far, user plus system.
func cpuSeconds() float64 {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e9
}

func socketError(fd int) syscall.Errno {
	value, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ERROR)
	if err != nil {
		if errno, ok := err.(syscall.Errno); ok {
			return errno
		}
		return syscall.EIO
	}
	return syscall.Errno(value)
}

// errorKind classifies a socket error as the Node engine does.
func errorKind(errno syscall.Errno) int {
	switch errno {
	case syscall.ECONNREFUSED:
		return errRefused
	case syscall.ECONNRESET, syscall.EPIPE, syscall.ECONNABORTED:
		return errReset
	default:
		return errOther
	}
}

// receiver reads a socket with recvmsg and returns the kernel's receive time of the last bytes read
// (SO_TIMESTAMPNS, wall clock), one message header reused for every read.
type receiver struct {
	header  syscall.Msghdr
	iov     syscall.Iovec
	control [64]byte
}

func (r *receiver) read(fd int, buffer []byte) (n int, receivedAtNs int64, errno syscall.Errno) {
	r.iov.Base = &buffer[0]
	r.iov.SetLen(len(buffer))
	r.header.Iov = &r.iov
	r.header.Iovlen = 1
	r.header.Control = &r.control[0]
	r.header.SetControllen(len(r.control))
	got, _, errno := syscall.RawSyscall(syscall.SYS_RECVMSG, uintptr(fd), uintptr(unsafe.Pointer(&r.header)), 0)
	if errno != 0 || got == 0 {
		return int(got), 0, errno
	}
	if r.header.Controllen >= syscall.SizeofCmsghdr+16 {
		cmsg := (*syscall.Cmsghdr)(unsafe.Pointer(&r.control[0]))
		if cmsg.Level == syscall.SOL_SOCKET && cmsg.Type == syscall.SCM_TIMESTAMPNS {
			stamp := (*syscall.Timespec)(unsafe.Pointer(&r.control[syscall.SizeofCmsghdr]))
			receivedAtNs = stamp.Nano()
		}
	}
	return int(got), receivedAtNs, 0
}
