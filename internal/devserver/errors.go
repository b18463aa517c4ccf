package devserver

import (
	"cmp"
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

// apiError is a failure, whose JSON is the service's error body.
type apiError struct {
	status  int
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// httpStatuses maps gRPC codes to HTTP statuses as the service does; others are 500.
var httpStatuses = map[int]int{
	codeInvalidArgument: http.StatusBadRequest, codeFailedPrecondition: http.StatusBadRequest, 11: http.StatusBadRequest,
	codeUnauthenticated: http.StatusUnauthorized, codePermissionDenied: http.StatusForbidden, codeNotFound: http.StatusNotFound,
	codeAlreadyExists: http.StatusConflict, 10: http.StatusConflict, 8: http.StatusTooManyRequests,
	12: http.StatusNotImplemented, 14: http.StatusServiceUnavailable, 4: http.StatusGatewayTimeout,
}

func httpStatusOf(code int) int { return cmp.Or(httpStatuses[code], http.StatusInternalServerError) }

func newError(code int, format string, args ...any) *apiError {
	return &apiError{status: httpStatusOf(code), Code: code, Message: fmt.Sprintf(format, args...)}
}

func invalidArgument(format string, args ...any) *apiError {
	return newError(codeInvalidArgument, format, args...)
}

func notFound(format string, args ...any) *apiError {
	return newError(codeNotFound, format, args...)
}
