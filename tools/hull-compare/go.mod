module github.com/autocollide/autocollide/tools/hull-compare

go 1.26.8

require (
	github.com/autocollide/autocollide v0.0.0
	github.com/golang/geo v0.0.0-20180826223333-635502111454
	github.com/markus-wa/quickhull-go/v2 v2.2.0
)

require gonum.org/v1/gonum v0.17.0 // indirect

replace github.com/autocollide/autocollide => ../..
