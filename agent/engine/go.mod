module benchlab/engine

go 1.26
