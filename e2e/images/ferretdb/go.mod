module github.com/quarrydata/quarry/e2e/images/ferretdb

go 1.24

require github.com/FerretDB/FerretDB v1.24.2
