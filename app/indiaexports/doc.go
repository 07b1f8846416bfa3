// Package indiaexports is the india_exports slice: CSV, XLSX and Parquet
// exports of the India datasets that offer one (usecase.ExportDataset).
package indiaexports
