package devserver

import (
	"fmt"
	"net/http"
)

// gRPC status codes the server answers with.
const (
	codeUnknown            = 2
	codeInvalidArgument    = 3
	codeNotFound           = 5
	codeAlreadyExists      = 6
	codePermissionDenied   = 7
	codeFailedPrecondition = 9
	codeInternal           = 13
	codeUnauthenticated    = 16
)

// apiError is a failure answered as the service's error body.
type apiError struct {
	status  int
	code    int
	message string
}

// httpStatusOf maps a gRPC code to its HTTP status as the service does.
func httpStatusOf(code int) int {
	switch code {
	case codeInvalidArgument, codeFailedPrecondition, 11:
		return http.StatusBadRequest
	case codeUnauthenticated:
		return http.StatusUnauthorized
	case codePermissionDenied:
		return http.StatusForbidden
	case codeNotFound:
		return http.StatusNotFound
	case codeAlreadyExists, 10:
		return http.StatusConflict
	case 8:
		return http.StatusTooManyRequests
	case 12:
		return http.StatusNotImplemented
	case 14:
		return http.StatusServiceUnavailable
	case 4:
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

func newError(code int, format string, args ...any) *apiError {
	return &apiError{status: httpStatusOf(code), code: code, message: fmt.Sprintf(format, args...)}
}

func invalidArgument(format string, args ...any) *apiError {
	return newError(codeInvalidArgument, format, args...)
}

func notFound(format string, args ...any) *apiError {
	return newError(codeNotFound, format, args...)
}

// routeError is what an unmatched route gets: the HTTP status of the routing
// failure with code UNKNOWN, as a gRPC gateway answers.
func routeError(status int) *apiError {
	return &apiError{status: status, code: codeUnknown, message: http.StatusText(status)}
}
