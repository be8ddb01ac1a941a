package platform

import (
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var fileStoreFileToken = register("harness:platform/fileStoreFile:FileStoreFile", FileStoreFileArgs{}, func() pulumi.CustomResource { return &FileStoreFile{} })

// FileStoreFile is a file in the Harness File Store, such as a service's Values YAML.
type FileStoreFile struct {
	pulumi.CustomResourceState

	Content          pulumi.StringPtrOutput   `pulumi:"content"`
	Description      pulumi.StringPtrOutput   `pulumi:"description"`
	FileContentPath  pulumi.StringPtrOutput   `pulumi:"fileContentPath"`
	FileUsage        pulumi.StringPtrOutput   `pulumi:"fileUsage"`
	Identifier       pulumi.StringOutput      `pulumi:"identifier"`
	MimeType         pulumi.StringPtrOutput   `pulumi:"mimeType"`
	Name             pulumi.StringPtrOutput   `pulumi:"name"`
	OrgId            pulumi.StringPtrOutput   `pulumi:"orgId"`
	ParentIdentifier pulumi.StringOutput      `pulumi:"parentIdentifier"`
	Path             pulumi.StringOutput      `pulumi:"path"`
	ProjectId        pulumi.StringPtrOutput   `pulumi:"projectId"`
	Tags             pulumi.StringArrayOutput `pulumi:"tags"`
}

type fileStoreFileArgs struct {
	Content          *string  `pulumi:"content"`
	Description      *string  `pulumi:"description"`
	FileContentPath  *string  `pulumi:"fileContentPath"`
	FileUsage        *string  `pulumi:"fileUsage"`
	Identifier       string   `pulumi:"identifier"`
	MimeType         *string  `pulumi:"mimeType"`
	Name             *string  `pulumi:"name"`
	OrgId            *string  `pulumi:"orgId"`
	ParentIdentifier string   `pulumi:"parentIdentifier"`
	ProjectId        *string  `pulumi:"projectId"`
	Tags             []string `pulumi:"tags"`
}

// FileStoreFileArgs are the inputs of a FileStoreFile.
type FileStoreFileArgs struct {
	Content          pulumi.StringPtrInput
	Description      pulumi.StringPtrInput
	FileContentPath  pulumi.StringPtrInput
	FileUsage        pulumi.StringPtrInput
	Identifier       pulumi.StringInput
	MimeType         pulumi.StringPtrInput
	Name             pulumi.StringPtrInput
	OrgId            pulumi.StringPtrInput
	ParentIdentifier pulumi.StringInput
	ProjectId        pulumi.StringPtrInput
	Tags             pulumi.StringArrayInput
}

func (FileStoreFileArgs) ElementType() reflect.Type {
	return reflect.TypeOf((*fileStoreFileArgs)(nil)).Elem()
}

// NewFileStoreFile registers a FileStoreFile.
func NewFileStoreFile(ctx *pulumi.Context, name string, args *FileStoreFileArgs, opts ...pulumi.ResourceOption) (*FileStoreFile, error) {
	if args == nil {
		return nil, errMissingArgs
	}
	if args.Identifier == nil {
		return nil, required("Identifier")
	}
	if args.ParentIdentifier == nil {
		return nil, required("ParentIdentifier")
	}
	var resource FileStoreFile
	if err := ctx.RegisterResource(fileStoreFileToken, name, args, &resource, defaultOpts(opts)...); err != nil {
		return nil, err
	}
	return &resource, nil
}
